import Foundation

/// One language's texts, read from `Languages/<code>.json` in BrollyCore's resources: adding a
/// language is adding one file. The same file serves the API's condition texts, the CLI's labels
/// and sentences, and the page (`/lang/<code>.json`, its `page` section).
public struct LanguagePack: Decodable, Sendable {
    public let code: String
    public let name: String
    public let decimalSeparator: String
    /// N, NE, E, … in the language.
    public let compass: [String]
    /// WMO code → [title, description].
    let conditions: [String: [String]]
    /// Condition kind → [title, description], for codes without their own text (OpenWeatherMap's).
    let kinds: [String: [String]]
    let text: [String: String]

    /// A text by key with `{name}` placeholders filled; the English text when this language has none.
    public func text(_ key: String, _ values: [String: String] = [:]) -> String {
        var s = text[key] ?? (code == "en" ? key : Localization.english.text(key, [:]))
        for (k, v) in values { s = s.replacingOccurrences(of: "{\(k)}", with: v) }
        return s
    }

    /// A condition's title and description in this language: Open-Meteo's WMO codes have their own
    /// texts; other providers' conditions keep their own description in English and get the
    /// kind's text in other languages.
    public func localized(_ c: Condition, provider: ProviderID, textLanguage: String? = nil) -> (title: String, description: String) {
        // The provider's texts are already in this language (OpenWeatherMap asked with `lang=`).
        // (OpenWeatherMap translates only the description; its `main` title stays English.)
        if (textLanguage ?? "en") == code {
            return code == "en" ? (c.title, c.description) : (kinds[c.kind.rawValue]?.first ?? c.title, c.description)
        }
        if provider == .openMeteo, let t = conditions[String(c.code)], t.count == 2 { return (t[0], t[1]) }
        if let t = kinds[c.kind.rawValue], t.count == 2 { return (t[0], t[1]) }
        return (c.title, c.description)
    }

    /// A number with the language's decimal separator.
    public func number(_ text: String) -> String {
        decimalSeparator == "." ? text : text.replacingOccurrences(of: ".", with: decimalSeparator)
    }
}

public enum Localization {
    /// The languages there are files for, by code.
    public static let packs: [String: LanguagePack] = {
        var out: [String: LanguagePack] = [:]
        let dir = Bundle.module.resourceURL?.appendingPathComponent("Languages")
        let files = (dir.flatMap { try? FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil) }) ?? []
        for file in files where file.pathExtension == "json" {
            if let data = try? Data(contentsOf: file), let pack = try? JSONDecoder().decode(LanguagePack.self, from: data) {
                out[pack.code] = pack
            }
        }
        return out
    }()

    public static var english: LanguagePack { packs["en"]! }

    /// The pack for a language tag (`ru`, `ru-RU`, `ru_RU.UTF-8`); English when there is none.
    public static func pack(for tag: String?) -> LanguagePack {
        guard let tag else { return english }
        let code = tag.lowercased().prefix { $0.isLetter }
        return packs[String(code)] ?? english
    }

    /// The raw file of a language, for the page.
    public static func file(_ code: String) -> Data? {
        guard packs[code] != nil, let url = Bundle.module.resourceURL?.appendingPathComponent("Languages/\(code).json") else { return nil }
        return try? Data(contentsOf: url)
    }

    /// The codes there are files for.
    public static var codes: [String] { packs.keys.sorted() }
}
