"""The servers: what speaks to clients over the network, on top of ``voice``'s pipeline.

``server`` is the ASGI app (the page, ``/ws``, ``/rtc``, the Realtime API, ``/v1/*``) and its
``serve``/``serve_api`` entry points; ``session`` is one ``/ws`` conversation, ``realtime``
the OpenAI Realtime API over it, ``webrtc`` both as WebRTC calls; ``text_api`` (its bodies in
``text_requests``, the engine in ``text_service``, the answers in ``text_replies``) and
``audio_api`` the text and audio endpoints, ``http_api`` the errors and routes they share;
``access`` the token and origin checks; ``wyoming`` the Wyoming server Home Assistant talks to;
``cluster`` the same application as Ray Serve deployments (``diffvoice cluster``), its front-ends
reaching the speech stages and the engine through ``cluster_stages``.
``voice`` never imports ``serve``.
"""
