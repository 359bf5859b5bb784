"""The ``diffvoice`` command line (:mod:`cli.main`): the one package above the others.

It starts what the other packages hold (``voice``'s pipeline and profiling, ``serve``'s
servers, ``training``'s trainer and evaluation, ``bench``'s decoding benchmark);
none of them imports it. ``python -m cli`` is the ``diffvoice`` command.
"""
