# Sourced by the benchmark scripts (WORK must be set): starts the upstream double on a free port
# (its pid in DOUBLE, its address in UP) and points every upstream at it, with the cache, the
# preferences and the data in WORK. Every upstream is the double, air quality and the alert
# sources too: an answer missing them is not memoized, so leaving them at the real, unreachable
# addresses would measure the slow path.
python3 tests/upstream_double.py --port 0 > "$WORK/double.out" &
DOUBLE=$!
for _ in $(seq 50); do grep -q PORT "$WORK/double.out" 2>/dev/null && break; sleep 0.1; done
UP="http://127.0.0.1:$(awk '/PORT/ {print $2}' "$WORK/double.out")"
export BROLLY_OPEN_METEO_URL=$UP BROLLY_OPEN_METEO_GEOCODING_URL=$UP BROLLY_NOMINATIM_URL=$UP BROLLY_BBC_FEEDS_URL=$UP
export BROLLY_OPEN_METEO_AIR_QUALITY_URL=$UP BROLLY_OPEN_METEO_ENSEMBLE_URL=$UP BROLLY_NWS_URL=$UP BROLLY_METEOALARM_URL=$UP BROLLY_NEWSAPI_URL=$UP
export BROLLY_GOOGLE_GEOCODING_URL=$UP BROLLY_OPENWEATHERMAP_URL=$UP BROLLY_IP_LOCATION_URL=$UP/json
export BROLLY_CACHE_DIR=$WORK/cache BROLLY_CONFIG_DIR=$WORK/config BROLLY_DATA_DIR=$WORK/data BROLLY_LOG_LEVEL=warning
