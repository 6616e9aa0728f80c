import Foundation

/// Email address checks shared by registration and mail delivery.
package enum MailAddress {
    /// The bare address of `"Name <addr@host>"` or `"addr@host"`; nil when it is not a plausible address.
    /// Single-label domains (`no-reply@localhost`) are accepted here, for senders and local test mail.
    package static func bare(_ text: String) -> String? {
        var address = text.trimmingCharacters(in: .whitespaces)
        if let open = address.lastIndex(of: "<"), address.hasSuffix(">") {
            address = String(address[address.index(after: open)..<address.index(before: address.endIndex)])
        }
        return isValid(address, requireDottedDomain: false) ? address : nil
    }

    /// A practical check: one `@`, a non-empty local part, a dotted domain, at most 254 characters, no
    /// spaces, control characters, angle brackets or quotes (which could break a mail header or command).
    package static func isValid(_ address: String, requireDottedDomain: Bool = true) -> Bool {
        guard address.count <= 254, address.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F }),
            !address.contains(where: { "<>\"(),;:\\[]".contains($0) })
        else { return false }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 64 else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= (requireDottedDomain ? 2 : 1)
            && labels.allSatisfy { !$0.isEmpty && !$0.hasPrefix("-") && !$0.hasSuffix("-") }
    }
}
