import Crypto
import Encodings
import Foundation
import Testing
import WebPush

@Suite struct PushMessageEncryptionTests {
    /// RFC 8291 Appendix A (and §5): its keys, salt and plaintext.
    let plaintext = "When I grow up, I want to be a watermelon"
    let asPrivate = "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
    let asPublic = "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
    let uaPrivate = "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
    let uaPublic = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    let salt = "DGv6ra1nlYgDCS1FRnbzlw"
    let authSecret = "BTBZMqHH6r4Tts7J_aSIgg"
    let body =
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru"
        + "3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"

    func bytes(_ text: String) throws -> Data { try #require(Base64URL.decode(text)) }

    @Test func reproducesTheRFC8291ExampleByteForByte() throws {
        let ephemeral = try P256.KeyAgreement.PrivateKey(rawRepresentation: bytes(asPrivate))
        #expect(ephemeral.publicKey.x963Representation == (try bytes(asPublic)))
        let encrypted = try PushMessageEncryption.encrypt(
            Data(plaintext.utf8), receiverPublicKey: bytes(uaPublic), authSecret: bytes(authSecret),
            salt: bytes(salt), ephemeralKey: ephemeral)
        #expect(Base64URL.encode(encrypted) == body)
    }

    @Test func decryptsTheRFC8291ExampleWithTheReceiversKey() throws {
        let receiver = try P256.KeyAgreement.PrivateKey(rawRepresentation: bytes(uaPrivate))
        let decrypted = try PushMessageEncryption.decrypt(
            bytes(body), receiverPrivateKey: receiver, authSecret: bytes(authSecret))
        #expect(String(decoding: decrypted, as: UTF8.self) == plaintext)
    }

    @Test func roundTripsWithAFreshBrowserKeyAndDiffersEachTime() throws {
        let browser = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { UInt8($0 * 7) })
        let message = Data(#"{"kind":"message","title":"Ana","body":"Summit at 9? 🏔"}"#.utf8)
        let first = try PushMessageEncryption.encrypt(
            message, receiverPublicKey: browser.publicKey.x963Representation, authSecret: auth)
        let second = try PushMessageEncryption.encrypt(
            message, receiverPublicKey: browser.publicKey.x963Representation, authSecret: auth)
        #expect(first != second)
        #expect(first.count == message.count + PushMessageEncryption.overheadBytes)
        #expect(try PushMessageEncryption.decrypt(first, receiverPrivateKey: browser, authSecret: auth) == message)
        #expect(try PushMessageEncryption.decrypt(second, receiverPrivateKey: browser, authSecret: auth) == message)
        #expect(throws: WebPushError.self) {
            try PushMessageEncryption.decrypt(
                first, receiverPrivateKey: browser, authSecret: Data(repeating: 1, count: 16))
        }
        #expect(throws: WebPushError.self) {
            try PushMessageEncryption.decrypt(
                first, receiverPrivateKey: P256.KeyAgreement.PrivateKey(), authSecret: auth)
        }
    }

    @Test func refusesBadKeysAndOversizedPayloads() throws {
        let browser = P256.KeyAgreement.PrivateKey().publicKey.x963Representation
        let auth = Data(repeating: 9, count: 16)
        #expect(throws: WebPushError.invalidReceiverKey) {
            try PushMessageEncryption.encrypt(Data("x".utf8), receiverPublicKey: browser.dropLast(), authSecret: auth)
        }
        #expect(throws: WebPushError.invalidReceiverKey) {
            try PushMessageEncryption.encrypt(
                Data("x".utf8), receiverPublicKey: Data([4] + [UInt8](repeating: 1, count: 64)), authSecret: auth)
        }
        #expect(throws: WebPushError.invalidAuthSecret) {
            try PushMessageEncryption.encrypt(Data("x".utf8), receiverPublicKey: browser, authSecret: auth.prefix(15))
        }
        let largest = Data(repeating: 65, count: PushMessageEncryption.maximumPlaintextBytes)
        let encrypted = try PushMessageEncryption.encrypt(largest, receiverPublicKey: browser, authSecret: auth)
        #expect(encrypted.count == PushMessageEncryption.maximumBodyBytes)
        #expect(throws: WebPushError.payloadTooLarge(bytes: largest.count + 1, limit: largest.count)) {
            try PushMessageEncryption.encrypt(largest + [65], receiverPublicKey: browser, authSecret: auth)
        }
    }

    @Test func base64URLAcceptsBothAlphabetsAndRefusesJunk() {
        #expect(Base64URL.decode("-_8") == Data([0xFB, 0xFF]))
        #expect(Base64URL.decode("+/8=") == Data([0xFB, 0xFF]))
        #expect(Base64URL.encode(Data([0xFB, 0xFF])) == "-_8")
        #expect(Base64URL.decode("a b") == nil)
        #expect(Base64URL.decode("") == nil)
        #expect(Base64URL.decode("abcde") == nil)
    }
}
