import Foundation

/// Where Brolly keeps its files, from the environment (XDG base directories).
public struct Directories: Sendable, Hashable {
    public var cache: URL
    public var config: URL
    public var data: URL

    /// `BROLLY_CACHE_DIR` (else `$XDG_CACHE_HOME/brolly`, else `~/.cache/brolly`), and likewise
    /// `BROLLY_CONFIG_DIR` / `XDG_CONFIG_HOME` and `BROLLY_DATA_DIR` / `XDG_DATA_HOME`.
    public static func fromEnvironment(_ env: [String: String]) -> Directories {
        let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func pick(_ own: String, _ xdg: String, _ fallback: String) -> URL {
            if let v = env[own], !v.isEmpty { return URL(fileURLWithPath: v, isDirectory: true) }
            if let v = env[xdg], !v.isEmpty { return URL(fileURLWithPath: v, isDirectory: true).appendingPathComponent("brolly") }
            return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(fallback).appendingPathComponent("brolly")
        }
        return Directories(
            cache: pick("BROLLY_CACHE_DIR", "XDG_CACHE_HOME", ".cache"),
            config: pick("BROLLY_CONFIG_DIR", "XDG_CONFIG_HOME", ".config"),
            data: pick("BROLLY_DATA_DIR", "XDG_DATA_HOME", ".local/share"))
    }
}
