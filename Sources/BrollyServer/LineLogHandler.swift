import BrollyCore
import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The server's log lines, in the format of swift-log's `StreamLogHandler` (`2026-11-28T16:25:32+0000
/// info brolly: hb.request.id=… hb.request.method=GET [BrollyServer] Request`), each written to
/// standard output with one `write(2)` when it is logged. Metadata is only a dictionary until a line
/// is written: `StreamLogHandler` sorted and joined all of it again on every change, and Hummingbird
/// gives every request's logger its id — 4-5 % of a cached answer's time under wrk (`perf`, issue
/// 52), at a log level that writes nothing for it. The time of a line is made once a second
/// (`localtime_r`, `strftime`), not for every line.
public struct LineLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let clock: any WallClock

    public init(label: String, clock: any WallClock, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.clock = clock
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line = Self.line(event, label: label, metadata: metadata, provider: metadataProvider, at: clock.now)
        line.withUTF8 { bytes in
            var rest = UnsafeRawBufferPointer(bytes)
            while !rest.isEmpty {
                let n = write(STDOUT_FILENO, rest.baseAddress, rest.count)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return }  // standard output closed or full: the line is dropped
                rest = UnsafeRawBufferPointer(rebasing: rest[n...])
            }
        }
    }

    /// One line as `StreamLogHandler` writes it: the time, the level, the label, the metadata
    /// sorted by key, the source in brackets and the message.
    static func line(
        _ event: LogEvent, label: String, metadata: Logger.Metadata, provider: Logger.MetadataProvider?, at date: Date
    ) -> String {
        var all = metadata
        if let provided = provider?.get(), !provided.isEmpty { all.merge(provided) { _, new in new } }
        if let explicit = event.metadata, !explicit.isEmpty { all.merge(explicit) { _, new in new } }
        if let error = event.error {
            all["error.message"] = "\(error)"
            all["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        var line = timestamp(date) + " \(event.level)"
        if !label.isEmpty { line += " " + label }
        line += ":"
        for (key, value) in all.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
        line += " [\(event.source)] \(event.message)\n"
        return line
    }

    /// The last second's text, `2026-11-28T16:25:32+0000` in the machine's time zone.
    static let lastSecond = Locked<(second: Int, text: String)>((Int.min, ""))

    static func timestamp(_ date: Date) -> String {
        let second = Int(date.timeIntervalSince1970.rounded(.down))
        if let hit = lastSecond.withLock({ $0.second == second ? $0.text : nil }) { return hit }
        var t = time_t(second)
        var parts = tm()
        localtime_r(&t, &parts)
        var buffer = [CChar](repeating: 0, count: 40)
        let n = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &parts)
        let text = String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        lastSecond.withLock { $0 = (second, text) }
        return text
    }
}
