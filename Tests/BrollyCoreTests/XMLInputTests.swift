import Foundation
import Testing

@testable import BrollyCore

/// Issue 35's fuzzing found Foundation's XMLParser trapping on an element name that is not valid
/// UTF-8 (Fuzz/found/cap-xml): the process stopped on one byte of a hostile CAP feed or RSS.
@Suite struct XMLInputTests {
    static func feed(_ tag: [UInt8]) -> Data {
        Data(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><alert xmlns=\"urn:oasis:names:tc:emergency:cap:1.2\"><identifier>x1</identifier><"
                .utf8)
            + Data(tag) + Data(">2026-11-26T00:07:00+00:00</sent><status>Actual</status><msgType>Alert</msgType></alert>".utf8)
    }

    @Test func anElementNameThatIsNotUTF8NeitherTrapsNorLosesTheRest() throws {
        // "<sent\u{FF}>": the byte the fuzzer flipped.
        let data = Self.feed(Array("sent".utf8) + [0xFF])
        _ = try? CAPDecoding.xml(data)
        _ = try? NewsDecoding.rss(
            Data("<rss><channel><item><ti".utf8) + Data([0xC3, 0x28]) + Data("tle>x</title></item></channel></rss>".utf8))
        #expect(XMLInput.sanitized(data) != data)
        #expect(String(data: XMLInput.sanitized(data), encoding: .utf8) != nil)
    }

    @Test func validUTF8AndOtherDeclaredEncodingsPassUnchanged() throws {
        let valid = Self.feed(Array("sent".utf8))
        #expect(XMLInput.sanitized(valid) == valid)
        #expect(try CAPDecoding.xml(valid).messages.map(\.identifier) == ["x1"])
        let latin1 =
            Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss><channel><item><title>Caf".utf8) + Data([0xE9])
            + Data("</title><link>https://e.com/1</link><pubDate>Wed, 25 Nov 2026 10:00:00 GMT</pubDate></item></channel></rss>".utf8)
        #expect(XMLInput.sanitized(latin1) == latin1)
        #expect(XMLInput.declaredEncoding(latin1) == "iso-8859-1")
        #expect(try NewsDecoding.rss(latin1).first?.title == "Café")
    }
}
