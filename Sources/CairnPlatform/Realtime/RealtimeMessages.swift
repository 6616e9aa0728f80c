import Foundation
import Geo
import NIOCore

/// What a browser sends over `/api/realtime` (JSON text frames):
///
/// - `{"type":"subscribe","topic":"parking.lot.7"}`, or with `"after": 41` to resume after the last sequence
///   number it saw;
/// - `{"type":"unsubscribe","topic":"parking.lot.7"}`;
/// - `{"type":"pong"}` in answer to the server's `ping`, and `{"type":"ping"}` to check the server (answered
///   with `pong`);
/// - `{"type":"publish","topic":"realtime.echo.x","payload":{…}}`, only where the test-only echo family is
///   switched on (`CAIRN_REALTIME_ECHO`).
struct RealtimeClientMessage: Decodable {
    let type: String
    let topic: String?
    let after: Int64?
    let payload: JSONValue?
}

/// What the server sends. Events are written by hand (`RealtimeEventMessage`) so that a payload is encoded
/// once for every subscriber; the rest are small.
enum RealtimeServerMessage {
    struct Hello: Encodable {
        let type = "hello"
        let pingSeconds: Double
        enum CodingKeys: String, CodingKey {
            case type
            case pingSeconds = "ping_seconds"
        }
    }

    struct Subscribed: Encodable {
        let type = "subscribed"
        let topic: String
        /// Events that follow have higher sequence numbers; a replay follows at once when this is lower than
        /// the topic's latest.
        let seq: Int64
    }

    struct Unsubscribed: Encodable {
        let type = "unsubscribed"
        let topic: String
        let reason: String?
    }

    struct Reset: Encodable {
        let type = "reset"
        let topic: String
        /// The topic's latest sequence number: reload the state, then expect events after this.
        let seq: Int64
        let reason: String
    }

    struct Failure: Encodable {
        let type = "error"
        let topic: String?
        let code: String
        let message: String
    }

    struct Beat: Encodable {
        let type: String
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder.custom(dates: .iso8601)
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    static func text(_ message: some Encodable) -> ByteBuffer {
        // These types hold strings and numbers only; encoding cannot fail.
        let data = (try? encoder.encode(message)) ?? Data(#"{"type":"error","code":"internal"}"#.utf8)
        return ByteBuffer(bytes: data)
    }

    static let ping = text(Beat(type: "ping"))
    static let pong = text(Beat(type: "pong"))
}

/// An event as it goes to every subscriber: `{"type":"event","topic":…,"seq":…,"payload":…}`, built once.
struct RealtimeDelivery: Sendable {
    let topic: String
    let seq: Int64
    let message: ByteBuffer

    init(topic: String, seq: Int64, payloadJSON: String) {
        self.topic = topic
        self.seq = seq
        // Topic names hold no characters that JSON escapes (RealtimeTopic.isWellFormed).
        var buffer = ByteBuffer()
        buffer.reserveCapacity(payloadJSON.utf8.count + topic.utf8.count + 48)
        buffer.writeString(#"{"type":"event","topic":""#)
        buffer.writeString(topic)
        buffer.writeString(#"","seq":"#)
        buffer.writeString(String(seq))
        buffer.writeString(#","payload":"#)
        buffer.writeString(payloadJSON)
        buffer.writeString("}")
        self.message = buffer
    }
}

/// WebSocket close codes the hub uses. The web client reconnects after every one of them (with backoff) and
/// resumes where it was.
package enum RealtimeCloseCode {
    /// The server is shutting down or restarting (1001, going away).
    package static let goingAway: UInt16 = 1001
    /// The client broke the protocol: malformed frames or a flood of messages (1008, policy violation).
    package static let policyViolation: UInt16 = 1008
    /// The client did not answer pings (nothing heard for two ping intervals).
    package static let heartbeatMissed: UInt16 = 4000
    /// The client did not keep up: its queue of unsent messages filled. It should reconnect and resume.
    package static let tooSlow: UInt16 = 4001
    /// The account's access changed (deleted, its password changed, signed out): reconnect to be identified
    /// again.
    package static let signedOut: UInt16 = 4003
}
