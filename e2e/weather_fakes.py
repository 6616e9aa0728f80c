"""A fake weather service on loopback for browser tests: answers Open-Meteo's `/v1/forecast` and NEA's
2-hour forecast in their real shapes, dry or rainy as the test says, for the time it is asked."""

import json
import threading
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SINGAPORE = timezone(timedelta(hours=8))


class FakeWeather:
    """`mode` is "dry", "rain" or "error" (HTTP 500), and may be changed while it runs."""

    def __init__(self, mode="dry"):
        self.mode = mode
        self.requests = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                fake.requests.append(self.path)
                if fake.mode == "error":
                    self.answer(500, {"message": "Internal Server Error"})
                elif self.path.startswith("/v1/forecast"):
                    self.answer(200, fake.open_meteo())
                elif self.path.startswith("/v1/environment/2-hour-weather-forecast"):
                    self.answer(200, fake.nea())
                else:
                    self.answer(404, {"message": "not found"})

            def answer(self, status, body):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()

    def open_meteo(self):
        now = datetime.now(timezone.utc).replace(second=0, microsecond=0)
        first = now - timedelta(minutes=now.minute % 15)
        times = [(first + timedelta(minutes=15 * i)).strftime("%Y-%m-%dT%H:%M") for i in range(10)]
        rain = [0.0, 0.0, 0.0, 0.8, 1.6, 2.1, 0.9, 0.2, 0.0, 0.0] if self.mode == "rain" else [0.0] * 10
        days = [(now + timedelta(days=i)).strftime("%Y-%m-%d") for i in range(7)]
        return {
            "latitude": 60.16, "longitude": 24.94, "generationtime_ms": 0.08, "utc_offset_seconds": 0,
            "timezone": "GMT", "timezone_abbreviation": "GMT", "elevation": 7.0,
            "current_units": {"time": "iso8601", "interval": "seconds", "temperature_2m": "°C",
                              "relative_humidity_2m": "%", "weather_code": "wmo code", "wind_speed_10m": "km/h"},
            "current": {"time": times[0], "interval": 900, "temperature_2m": 8.4, "relative_humidity_2m": 71,
                        "weather_code": 61 if self.mode == "rain" else 1, "wind_speed_10m": 12.6},
            "minutely_15_units": {"time": "iso8601", "precipitation": "mm"},
            "minutely_15": {"time": times, "precipitation": rain},
            "daily_units": {"time": "iso8601", "weather_code": "wmo code", "temperature_2m_max": "°C",
                            "temperature_2m_min": "°C", "wind_speed_10m_max": "km/h"},
            "daily": {"time": days, "weather_code": [61, 2, 71, 0, 3, 45, 95],
                      "temperature_2m_max": [10.2, 12.5, 1.0, 14.9, 13.3, 9.0, 18.6],
                      "temperature_2m_min": [3.1, 4.4, -3.2, 2.0, 5.5, 4.0, 10.1],
                      "wind_speed_10m_max": [20.0, 18.0, 24.0, 10.0, 45.0, 8.0, 30.0]},
        }

    def nea(self):
        now = datetime.now(SINGAPORE).replace(second=0, microsecond=0)
        start = now - timedelta(minutes=now.minute % 30)
        bedok = "Thundery Showers" if self.mode == "rain" else "Partly Cloudy (Night)"
        return {
            "area_metadata": [
                {"name": "Ang Mo Kio", "label_location": {"latitude": 1.375, "longitude": 103.839}},
                {"name": "Bedok", "label_location": {"latitude": 1.321, "longitude": 103.924}},
                {"name": "City", "label_location": {"latitude": 1.292, "longitude": 103.844}},
            ],
            "items": [{
                "update_timestamp": now.isoformat(), "timestamp": start.isoformat(),
                "valid_period": {"start": start.isoformat(), "end": (start + timedelta(hours=2)).isoformat()},
                "forecasts": [{"area": "Ang Mo Kio", "forecast": "Cloudy"}, {"area": "Bedok", "forecast": bedok},
                              {"area": "City", "forecast": "Fair (Night)"}],
            }],
            "api_info": {"status": "healthy"},
        }
