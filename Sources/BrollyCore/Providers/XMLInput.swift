import Foundation

/// What Foundation's `XMLParser` may safely be given. On Linux its element callback traps on an
/// element name that is not valid UTF-8 (found by fuzzing, issue 35: `<sent\u{FF}…>` in a CAP feed
/// stopped the process), so a document that is, or claims to be, UTF-8 but holds invalid
/// sequences has them replaced by U+FFFD first. A document in another declared encoding, or
/// UTF-16 with its byte-order mark, is left to libxml2, which converts it to valid UTF-8 itself.
enum XMLInput {
    static func sanitized(_ data: Data) -> Data {
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) { return data }
        if let declared = declaredEncoding(data), declared != "utf-8", declared != "utf8" { return data }
        if String(data: data, encoding: .utf8) != nil { return data }
        return Data(String(decoding: data, as: UTF8.self).utf8)
    }

    /// The `encoding` of the XML declaration, lower-cased, if the document starts with one.
    static func declaredEncoding(_ data: Data) -> String? {
        let head = String(decoding: data.prefix(256), as: UTF8.self)
        guard head.hasPrefix("<?xml") || head.hasPrefix("\u{FEFF}<?xml"), let end = head.range(of: "?>") else { return nil }
        let declaration = head[..<end.lowerBound]
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote }).lowercased()
    }
}
