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

    /// The CLDR plural category of `n` in this language: `one`, `few`, `many`, `two`, `zero` or `other`.
    public func pluralCategory(_ n: Double) -> String {
        let whole = n.rounded() == n && n.isFinite
        let i = whole ? Int(abs(n)) : -1
        switch code {
        case "ru", "uk":
            guard whole else { return "other" }
            if i % 10 == 1 && i % 100 != 11 { return "one" }
            if (2...4).contains(i % 10) && !(12...14).contains(i % 100) { return "few" }
            return "many"
        case "pl":
            guard whole else { return "other" }
            if i == 1 { return "one" }
            if (2...4).contains(i % 10) && !(12...14).contains(i % 100) { return "few" }
            return "many"
        case "ar":
            guard whole else { return "other" }
            if i == 0 { return "zero" }
            if i == 1 { return "one" }
            if i == 2 { return "two" }
            if (3...10).contains(i % 100) { return "few" }
            if (11...99).contains(i % 100) { return "many" }
            return "other"
        case "ja", "zh", "tr":
            return code == "tr" && whole && i == 1 ? "one" : "other"
        case "fr", "pt":
            return abs(n) < 2 && (whole ? i <= 1 : true) ? "one" : "other"
        default:
            return whole && i == 1 ? "one" : "other"
        }
    }

    /// The text `key` in the form for `n` (`key#one`, `key#few`…, else `key#other`, else `key`).
    public func plural(_ key: String, _ n: Double, _ values: [String: String] = [:]) -> String {
        let category = pluralCategory(n)
        for candidate in [key + "#" + category, key + "#other"] where text[candidate] != nil {
            return self.text(candidate, values)
        }
        return self.text(key, values)
    }

    /// A date's (`yyyy-MM-dd`) short weekday name from the language's locale: "Fri", "пт", "金".
    public func weekday(ofDate date: String) -> String {
        guard code != "en", let day = LocalTime.parse(date, in: TimeZone(secondsFromGMT: 0)!) else {
            return LocalTime.weekday(ofDate: date)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: code)
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.setLocalizedDateFormatFromTemplate("EEE")
        return formatter.string(from: day).trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }

    /// The name of a Beaufort force (0–12): "fresh breeze".
    public func beaufortName(_ force: Int) -> String { text("beaufort\(min(max(force, 0), 12))") }

    /// An air-quality scale's category ("Very poor", as `AirQualityBand` publishes it) in the language.
    public func bandName(_ category: String) -> String { text("band_" + Self.token(category)) }

    /// A moon phase ("waning gibbous", as `SkyCalculator` names it) in the language.
    public func moonPhaseName(_ phase: String) -> String { text("moon_" + Self.token(phase)) }

    /// "Very poor" → "very_poor": the part of a key an English name gives.
    static func token(_ name: String) -> String { name.lowercased().replacingOccurrences(of: " ", with: "_") }

    /// A number with the language's decimal separator.
    /// Only a point between two digits is a decimal point ("мм рт. ст." keeps its own).
    public func number(_ text: String) -> String {
        guard decimalSeparator != ".", text.contains(".") else { return text }
        let chars = Array(text)
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for (i, ch) in chars.enumerated() {
            if ch == ".", i > 0, i + 1 < chars.count, chars[i - 1].isNumber, chars[i + 1].isNumber {
                out += decimalSeparator
            } else {
                out.append(ch)
            }
        }
        return out
    }
}

public enum Localization {
    /// The language files: beside the executable when they are there (where SwiftPM puts the
    /// resource bundle), found by one file check — `Bundle` lists the executable's whole directory
    /// to find it, which a short command like `brolly now --offline` pays for on every start —, else
    /// through `Bundle.module` (a test runner, an app).
    static let directory: URL? = {
        #if os(Linux)
            let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            let beside = executable.deletingLastPathComponent().appendingPathComponent("Brolly_BrollyCore.resources/Languages")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: beside.path, isDirectory: &isDirectory), isDirectory.boolValue { return beside }
        #endif
        return Bundle.module.resourceURL?.appendingPathComponent("Languages")
    }()

    /// The codes there are files for (the files' names: listing them reads none of them).
    public static let codes: [String] = {
        let files = (directory.flatMap { try? FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil) }) ?? []
        return files.filter { $0.pathExtension == "json" }.map { $0.deletingPathExtension().lastPathComponent }.sorted()
    }()

    /// The packs read so far: a command reads only the language it speaks (and English), not all
    /// fourteen, so that adding languages costs its start nothing.
    static let loaded = Locked<[String: LanguagePack]>([:])

    /// The pack of `code` when there is a file for it.
    public static func pack(code: String) -> LanguagePack? {
        if let pack = loaded.withLock({ $0[code] }) { return pack }
        guard codes.contains(code), let url = directory?.appendingPathComponent("\(code).json"),
            let data = try? Data(contentsOf: url), let pack = try? JSONDecoder().decode(LanguagePack.self, from: data)
        else { return nil }
        loaded.withLock { $0[code] = pack }
        return pack
    }

    /// Every language, by code (read on first use).
    public static var packs: [String: LanguagePack] {
        var out: [String: LanguagePack] = [:]
        for code in codes { out[code] = pack(code: code) }
        return out
    }

    public static var english: LanguagePack { pack(code: "en")! }

    /// The pack for a language tag (`ru`, `ru-RU`, `ru_RU.UTF-8`); English when there is none.
    public static func pack(for tag: String?) -> LanguagePack {
        guard let tag else { return english }
        return pack(code: baseCode(tag)) ?? english
    }

    /// A language tag's language (`pt-BR` → `pt`, `ru_RU.UTF-8` → `ru`), as geocoders and feeds are
    /// asked in it; `en` for an empty one.
    public static func baseCode(_ tag: String) -> String {
        let code = String(tag.lowercased().prefix { $0.isLetter })
        return code.isEmpty ? "en" : code
    }

    /// Whether Brolly speaks the language of `tag` (a file for it exists).
    public static func speaks(_ tag: String) -> Bool { codes.contains(String(tag.lowercased().prefix { $0.isLetter })) }

    /// The raw file of a language, for the page.
    public static func file(_ code: String) -> Data? {
        guard codes.contains(code), let url = directory?.appendingPathComponent("\(code).json") else { return nil }
        return try? Data(contentsOf: url)
    }
}
