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

    /// A declared encoding libxml2 does not know (`UTF-'8`) with bytes that are not UTF-8 in a name:
    /// the second input fuzzing kept (Fuzz/found/cap-xml).
    @Test func anEncodingNobodyKnowsIsReadAsUTF8() throws {
        let data =
            Data("<?xml version=\"1.0\" encoding=\"UTF-'8\"?><feed><tit".utf8) + Data([0xFF, 0xFF]) + Data("le>x</title></feed>".utf8)
        _ = try? CAPDecoding.xml(data)
        let clean = XMLInput.sanitized(data)
        #expect(String(data: clean, encoding: .utf8)?.hasPrefix("<feed>") == true)
    }

    /// `<?xml-?>`: a processing instruction without data (Fuzz/found/bbc-rss) made Foundation's
    /// XMLParser call strlen() on nothing. Processing instructions are removed; the declaration, and
    /// one written inside a comment or CDATA, stay.
    @Test func processingInstructionsAreRemoved() throws {
        let data = Data(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<?xml-?><?xml-stylesheet href=\"a.xsl\"?><rss><channel><item><title><![CDATA[a <?b?> c]]></title><!-- <?d?> --><link>https://e.com/1</link><pubDate>Wed, 25 Nov 2026 10:00:00 GMT</pubDate></item></channel></rss>"
                .utf8)
        let clean = String(decoding: XMLInput.sanitized(data), as: UTF8.self)
        #expect(clean.hasPrefix("\n<rss>"))
        #expect(clean.contains("<![CDATA[a <?b?> c]]>") && clean.contains("<!-- <?d?> -->"))
        _ = try NewsDecoding.rss(data)
        // A broken declaration followed by an instruction without data (Fuzz/found/bbc-rss).
        let broken = String(decoding: XMLInput.sanitized(Data("<?xml v+ Bl> <?ro?>i".utf8)), as: UTF8.self)
        #expect(!broken.contains("<?ro?>"))
        _ = try? NewsDecoding.rss(Data("<?xml v+ Bl> <?ro?>i".utf8))
        #expect(String(decoding: XMLInput.sanitized(Data("<?xml?>\n<rss s".utf8)), as: UTF8.self) == "\n<rss s")
        let plain = Data("<rss><channel/></rss>".utf8)
        #expect(XMLInput.sanitized(plain) == plain)
    }

    @Test func validUTF8LosesOnlyItsDeclarationAndOtherEncodingsAreConverted() throws {
        let valid = Self.feed(Array("sent".utf8))
        #expect(XMLInput.utf8(valid) == valid)
        #expect(String(decoding: XMLInput.sanitized(valid), as: UTF8.self).hasPrefix("<alert xmlns="))
        #expect(try CAPDecoding.xml(valid).messages.map(\.identifier) == ["x1"])
        let latin1 =
            Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss><channel><item><title>Caf".utf8) + Data([0xE9])
            + Data("</title><link>https://e.com/1</link><pubDate>Wed, 25 Nov 2026 10:00:00 GMT</pubDate></item></channel></rss>".utf8)
        #expect(XMLInput.declaredEncoding(latin1) == "iso-8859-1")
        #expect(
            String(data: XMLInput.sanitized(latin1), encoding: .utf8)?.hasPrefix("<rss>") == true)
        #expect(try NewsDecoding.rss(latin1).first?.title == "Café")
    }
}

/// Times a provider writes as seconds since 1970 are read between 1970 and 2100 only (fuzzing:
/// OpenWeatherMap's `"dt": 1e30` trapped converting it to whole seconds).
@Suite struct EpochTests {
    @Test func absurdTimesAreNotDates() throws {
        #expect(JSONValue.number(1_764_000_000).epoch == Date(timeIntervalSince1970: 1_764_000_000))
        #expect(JSONValue.number(1e30).epoch == nil && JSONValue.number(-5).epoch == nil)
        #expect(
            HourForecast(time: Date(timeIntervalSince1970: 1e30), temperature: 1, condition: Conditions.wmo(0)).time.timeIntervalSince1970
                == Double(UInt32.max))
        let forecast = Data(
            #"{"cod":"200","cnt":1,"list":[{"dt":1e30,"main":{"temp":2.5},"weather":[{"id":800,"main":"Clear","icon":"01d"}]}],"city":{"name":"X","coord":{"lat":1,"lon":1},"country":"GB","timezone":0}}"#
                .utf8)
        #expect(try OpenWeatherMapProvider.forecast(from: forecast).slots.isEmpty)
    }
}

/// Foundation's DateFormatter trapped on a date that is not ASCII (fuzzing, Fuzz/found/bbc-rss);
/// Retry-After's "nan" must not become a wait.
@Suite struct DateInputTests {
    @Test func datesThatAreNotASCIIAreNotDates() {
        #expect(NewsDecoding.rfc822("Thu, 26\u{5B1}ov 2026 00:15:30 GMT") == nil)
        #expect(NewsDecoding.rfc822("Thu, 26 Nov 2026 00:15:30 GMT") != nil)
        #expect(NetworkService.retryAfter("Thu, 26\u{5B1}ov 2026 00:15:30 GMT", now: Date()) == nil)
        #expect(NetworkService.retryAfter("nan", now: Date()) == nil && NetworkService.retryAfter("1e400", now: Date()) == nil)
        #expect(NetworkService.retryAfter("1e9", now: Date()) == 86_400 && NetworkService.retryAfter("30", now: Date()) == 30)
    }
}
