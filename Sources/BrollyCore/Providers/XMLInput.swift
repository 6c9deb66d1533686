import Foundation

/// What Foundation's `XMLParser` may safely be given: always valid UTF-8, with no declaration. On Linux
/// its element callback traps on an element name that is not valid UTF-8 (found by fuzzing, issue
/// 35: `<sent\u{FF}>` in a CAP feed, or a document whose declared encoding libxml2 does not know,
/// stopped the process). A document in UTF-8 with a UTF-8 (or no) declaration passes unchanged; one
/// in UTF-16 (by its byte-order mark) or a declared single-byte encoding (ISO-8859-1, Windows-1252,
/// ASCII) is converted; anything else is read as UTF-8 with invalid sequences replaced by U+FFFD.
/// Processing instructions, the XML declaration among them, are removed (see
/// `withoutProcessingInstructions`).
enum XMLInput {
    static func sanitized(_ data: Data) -> Data {
        withoutProcessingInstructions(utf8(data))
    }

    /// The document as valid UTF-8.
    static func utf8(_ data: Data) -> Data {
        let declared = declaredEncoding(data)
        let isUTF8 = declared == nil || declared == "utf-8" || declared == "utf8"
        if isUTF8 && !hasUTF16Mark(data) && String(data: data, encoding: .utf8) != nil { return data }
        let text: String
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]), let s = String(data: data, encoding: .utf16) {
            text = s
        } else if let encoding = declared.flatMap({ singleByte[$0] }), let s = String(data: data, encoding: encoding) {
            text = s
        } else {
            text = String(decoding: data, as: UTF8.self)
        }
        return Data((text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text).utf8)
    }

    static let singleByte: [String: String.Encoding] = [
        "iso-8859-1": .isoLatin1, "iso8859-1": .isoLatin1, "latin1": .isoLatin1, "latin-1": .isoLatin1,
        "windows-1252": .windowsCP1252, "cp1252": .windowsCP1252, "us-ascii": .ascii, "ascii": .ascii,
    ]

    static func hasUTF16Mark(_ data: Data) -> Bool { data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) }

    /// The document without processing instructions, its XML declaration included: Foundation's
    /// XMLParser on Linux reads a processing instruction's data with strlen() even when it has none
    /// (`<?xml-?>`: a segmentation fault, found by fuzzing). Neither CAP nor RSS uses them; one inside
    /// a comment or a CDATA section is text and stays.
    static func withoutProcessingInstructions(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        let n = bytes.count
        func starts(_ i: Int, _ s: [UInt8]) -> Bool { i + s.count <= n && bytes[i..<(i + s.count)].elementsEqual(s) }
        func find(_ s: [UInt8], from i: Int) -> Int? {
            var j = i
            while j + s.count <= n {
                if bytes[j] == s[0] && starts(j, s) { return j }
                j += 1
            }
            return nil
        }
        // The XML declaration goes too: the document is UTF-8 by now, XML's default. (Keeping it
        // let through `<?xml?>` and `<?xml v+ Bl> <?ro?>`: what libxml2 reads as an instruction
        // without data, found by fuzzing.)
        var i = 0
        guard find(Array("<?".utf8), from: i) != nil else { return data }
        var out: [UInt8] = []
        out.reserveCapacity(n)
        let comment = Array("<!--".utf8), cdata = Array("<![CDATA[".utf8)
        while i < n {
            if bytes[i] == UInt8(ascii: "<") {
                if starts(i, comment) || starts(i, cdata) {
                    let close = starts(i, comment) ? Array("-->".utf8) : Array("]]>".utf8)
                    let end = find(close, from: i + 4).map { $0 + close.count } ?? n
                    out += bytes[i..<end]
                    i = end
                    continue
                }
                if starts(i, Array("<?".utf8)) {
                    i = find(Array("?>".utf8), from: i + 2).map { $0 + 2 } ?? n
                    continue
                }
            }
            out.append(bytes[i])
            i += 1
        }
        return Data(out)
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
