"""A small client of /api/realtime for end-to-end tests (websocket-client): reads JSON messages in order,
answers the server's pings, and reports the close frame's code."""

import json

import websocket


class RealtimeClient:
    def __init__(self, server, headers=None):
        url = server.url.replace("http://", "ws://") + "/api/realtime"
        self.ws = websocket.create_connection(url, timeout=15, header=headers or [])
        hello = self.next()
        assert hello["type"] == "hello", hello

    def send(self, message):
        self.ws.send(json.dumps(message))

    def subscribe(self, topic, after=None):
        message = {"type": "subscribe", "topic": topic}
        if after is not None:
            message["after"] = after
        self.send(message)
        return self.next_of("subscribed")

    def publish(self, topic, payload):
        """Only where the test-only echo family is on (CAIRN_REALTIME_ECHO=on)."""
        self.send({"type": "publish", "topic": topic, "payload": payload})

    def next(self, timeout=15):
        """The next message; a close frame comes back as {"type": "close", "code": …}."""
        self.ws.settimeout(timeout)
        while True:
            opcode, frame = self.ws.recv_data_frame(control_frame=True)
            if opcode == websocket.ABNF.OPCODE_TEXT:
                message = json.loads(frame.data)
                if message["type"] == "ping":
                    self.send({"type": "pong"})
                    continue
                return message
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                code = int.from_bytes(frame.data[:2], "big") if len(frame.data) >= 2 else None
                return {"type": "close", "code": code}

    def next_of(self, kind, timeout=15):
        message = self.next(timeout)
        assert message["type"] == kind, f"expected {kind}, got {message}"
        return message

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass
