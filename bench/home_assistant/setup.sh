#!/bin/sh
# Home Assistant 2024.3.3 (the newest that runs on Python 3.11) in $HA_DIR (default /tmp/ha), set up
# to check `diffvoice wyoming` with its own Wyoming integration (bench/home_assistant/verify.py).
# Debian 12; apt for ffmpeg needs root.
set -e
REPO=$(cd "$(dirname "$0")/../.." && pwd)
HA_DIR=${HA_DIR:-/tmp/ha}
mkdir -p "$HA_DIR" && cd "$HA_DIR"
[ -d venv ] || /usr/bin/python3.11 -m venv venv
. venv/bin/activate
pip install 'homeassistant==2024.3.3'                      # newest HA whose Requires-Python allows 3.11
# the wyoming client HA 2024.3.3 pins (components/wyoming/manifest.json) + requirements of the
# integrations a real HA install loads (HA could pip-install these itself without --skip-pip)
pip install wyoming==1.5.3 webrtc-noise-gain==1.2.3 hassil==1.6.1 home-assistant-intents==2024.3.12 \
    mutagen==1.47.0 ha-ffmpeg==3.1.0 home-assistant-frontend==20240307.0 Pillow==10.2.0 janus==1.0.0 \
    securetar==2024.2.1 psutil-home-assistant==0.0.1 SQLAlchemy==2.0.27 fnv-hash-fast==0.5.0 \
    numpy==1.26.0 zeroconf==0.131.0 'josepy<2'              # josepy<2: acme 2.8 (hass-nabucasa) breaks with josepy 2
command -v ffmpeg || apt-get install -y --no-install-recommends ffmpeg   # HA's TTS converts to mp3 by default
mkdir -p config && [ -f config/configuration.yaml ] || cat > config/configuration.yaml <<'YAML'
homeassistant:
  name: diffvoice-verify
  latitude: 52.37
  longitude: 4.89
  elevation: 0
  unit_system: metric
  time_zone: UTC
  country: NL
  currency: EUR
http:
  server_host: 127.0.0.1
  server_port: 8129
api:
websocket_api:
config:
assist_pipeline:
media_source:
logger:
  default: info
  logs:
    homeassistant.components.wyoming: debug
    homeassistant.components.assist_pipeline: debug
    wyoming: debug
YAML
[ -f config/.storage/auth_provider.homeassistant ] || hass --script auth -c "$HA_DIR/config" add verify verifypass123
echo "now start:  (cd $REPO && . .venv/bin/activate && diffvoice wyoming --port 10391 &)"
echo "            (cd $HA_DIR && . venv/bin/activate && hass -c $HA_DIR/config --skip-pip &)"
echo "then:       . $HA_DIR/venv/bin/activate && python $REPO/bench/home_assistant/verify.py --wyoming 127.0.0.1:10391 --ha http://127.0.0.1:8129"
