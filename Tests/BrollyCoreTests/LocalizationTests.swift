import BrollyTestSupport
import Foundation
import Testing

@testable import BrollyCore

@Suite struct LocalizationTests {
    @Test func everyLanguageFileHasEveryKeyOfEnglish() throws {
        #expect(Set(Localization.codes).isSuperset(of: ["en", "ru"]))
        let english = Localization.english
        for code in Localization.codes {
            let pack = Localization.pack(for: code)
            // Plural forms (`key#one`, `key#few`…) differ by language: the keys without them are the
            // same everywhere, and each plural key has its language's every category and `other`.
            func base(_ keys: some Sequence<String>) -> Set<String> { Set(keys.map { String($0.split(separator: "#")[0]) }) }
            #expect(base(pack.text.keys) == base(english.text.keys), "\(code): text keys")
            for key in base(pack.text.keys.filter { $0.contains("#") }) {
                let needed = Set([0, 1, 2, 3, 5, 11, 21, 0.5].map(pack.pluralCategory)).union(["other"])
                let present = Set(pack.text.keys.filter { $0.hasPrefix(key + "#") }.map { String($0.split(separator: "#")[1]) })
                #expect(present == needed, "\(code): the plural forms of \(key)")
            }
            #expect(Set(pack.conditions.keys) == Set(english.conditions.keys), "\(code): WMO codes")
            #expect(Set(pack.kinds.keys) == Set(ConditionKind.allCases.map(\.rawValue)), "\(code): kinds")
            #expect(pack.compass.count == 8, "\(code): compass")
            // Every WMO code Brolly maps has a text in every language.
            for code in [0, 1, 2, 3, 45, 48, 51, 53, 55, 56, 57, 61, 63, 65, 66, 67, 71, 73, 75, 77, 80, 81, 82, 85, 86, 95, 96, 99] {
                #expect(pack.conditions[String(code)]?.count == 2, "\(pack.code): WMO \(code)")
            }
        }
    }

    /// The page's texts too: every key of English's `page` in every file (nested lists the same
    /// length), none extra.
    @Test func everyLanguageFileHasEveryPageKeyOfEnglish() throws {
        func paths(_ value: Any, _ prefix: String = "") -> Set<String> {
            if let dict = value as? [String: Any] {
                return dict.reduce(into: Set<String>()) { $0.formUnion(paths($1.value, prefix + "." + $1.key)) }
            }
            if let list = value as? [Any] {
                return list.enumerated().reduce(into: Set<String>()) { $0.formUnion(paths($1.element, prefix + "[\($1.offset)]")) }
            }
            return [prefix]
        }
        func page(_ code: String) throws -> Set<String> {
            let file = try #require(Localization.file(code))
            let json = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
            return paths(try #require(json["page"]))
        }
        let english = try page("en")
        #expect(Localization.codes.count >= 14, "fourteen languages at least: \(Localization.codes)")
        for code in Localization.codes {
            let keys = try page(code)
            #expect(keys.subtracting(english).isEmpty, "\(code): extra page keys \(keys.subtracting(english).sorted())")
            #expect(english.subtracting(keys).isEmpty, "\(code): missing page keys \(english.subtracting(keys).sorted())")
        }
    }

    @Test func pluralFormsFollowCLDR() {
        let ru = Localization.pack(for: "ru")
        #expect([1, 2, 5, 21, 0.5, 11, 22, 111].map(ru.pluralCategory) == ["one", "few", "many", "one", "other", "many", "few", "many"])
        #expect([1, 2, 5, 21, 0.5].map(Localization.english.pluralCategory) == ["one", "other", "other", "other", "other"])
        #expect(ru.plural("unit_bft", 1) == "балл" && ru.plural("unit_bft", 3) == "балла" && ru.plural("unit_bft", 5) == "баллов")
        #expect(ru.plural("unit_bft", 21) == "балл" && Localization.english.plural("unit_bft", 5) == "Bft")
    }

    /// Each language's plural forms as CLDR has them, for 1, 2, 5, 21 and 0.5.
    @Test func everyLanguagesPluralFormsFollowCLDR() {
        let expected: [String: [String]] = [
            "en": ["one", "other", "other", "other", "other"], "de": ["one", "other", "other", "other", "other"],
            "nl": ["one", "other", "other", "other", "other"], "es": ["one", "other", "other", "other", "other"],
            "it": ["one", "other", "other", "other", "other"], "tr": ["one", "other", "other", "other", "other"],
            "fr": ["one", "other", "other", "other", "one"], "pt": ["one", "other", "other", "other", "one"],
            "ru": ["one", "few", "many", "one", "other"], "uk": ["one", "few", "many", "one", "other"],
            "pl": ["one", "few", "many", "many", "other"], "ar": ["one", "two", "few", "many", "other"],
            "ja": ["other", "other", "other", "other", "other"], "zh": ["other", "other", "other", "other", "other"],
        ]
        #expect(Set(expected.keys) == Set(Localization.codes))
        for (code, forms) in expected {
            #expect([1, 2, 5, 21, 0.5].map(Localization.pack(for: code).pluralCategory) == forms, "\(code)")
        }
        // Arabic's zero, and each language's Beaufort unit in the right form.
        #expect(Localization.pack(for: "ar").pluralCategory(0) == "zero")
        #expect(Localization.pack(for: "uk").plural("unit_bft", 3) == "бали")
        #expect(Localization.pack(for: "pl").plural("unit_bft", 5) == "stopni B")
        #expect(Localization.pack(for: "ar").plural("unit_bft", 2) == "درجتا بوفورت")
    }

    @Test func russianConditionsSentencesAndNumbers() {
        let ru = Localization.pack(for: "ru-RU")
        #expect(ru.code == "ru" && Localization.pack(for: "ru_RU.UTF-8").code == "ru")
        #expect(Localization.pack(for: "xx").code == "en" && Localization.pack(for: nil).code == "en")
        #expect(ru.localized(Conditions.wmo(61), provider: .openMeteo) == ("Дождь", "небольшой дождь"))
        // OpenWeatherMap's own description gives way to the kind's text in Russian.
        let owm = Conditions.openWeatherMap(id: 500, main: "Rain", description: "light rain", isDay: true)
        #expect(ru.localized(owm, provider: .openWeatherMap) == ("Дождь", "дождь"))
        #expect(Localization.english.localized(owm, provider: .openWeatherMap) == ("Rain", "light rain"))
        #expect(WeatherDocument.comparedWithYesterday(now: 5, yesterday: 2, language: ru) == "на 3° теплее, чем вчера")
        #expect(WeatherDocument.comparedWithYesterday(now: 5, yesterday: 5.5, language: ru) == "примерно как вчера")
        let t0 = utc("2026-11-23T13:00:00Z")
        let slots = [0, 0, 0.3, 0.5, 0.2, 0, 0, 0].enumerated().map {
            NowcastSlot(end: t0.addingTimeInterval(Double($0.offset + 1) * 900), precipitation: $0.element)
        }
        #expect(NowcastSummary.sentence(slots, now: t0, language: ru) == "Дождь начнётся примерно через 30 мин и продлится около 45 мин")
        #expect(ru.number("4.2 m/s") == "4,2 m/s" && Localization.english.number("4.2") == "4.2")
        var report = sampleReport()
        report.current.condition = Conditions.wmo(3)
        let doc = WeatherDocument(report, units: .metric, stale: false, age: 0, now: Date(), language: ru)
        #expect(doc.current.condition.title == "Облачно" && doc.current.condition.description == "пасмурно")
        #expect(doc.current.condition.code == 3 && doc.current.condition.icon == "cloudy")
    }
}
