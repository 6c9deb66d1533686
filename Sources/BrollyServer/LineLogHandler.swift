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
        // The pairs in one array, later sources replacing earlier ones' values (the handler's, the
        // provider's, the event's, the error's), sorted once and appended piece by piece: the
        // dictionary merged, sorted into a second array and each pair interpolated into a string of
        // its own cost a request line four allocations more (issue 52, the request log at `info`).
        var pairs: [(key: String, value: Logger.MetadataValue)] = []
        pairs.reserveCapacity(metadata.count + (event.metadata?.count ?? 0) + 2)
        for (key, value) in metadata { pairs.append((key, value)) }
        func put(_ key: String, _ value: Logger.MetadataValue) {
            if let i = pairs.firstIndex(where: { $0.key == key }) { pairs[i].value = value } else { pairs.append((key, value)) }
        }
        if let provided = provider?.get() { for (key, value) in provided { put(key, value) } }
        if let explicit = event.metadata { for (key, value) in explicit { put(key, value) } }
        if let error = event.error {
            put("error.message", "\(error)")
            put("error.type", "\(String(reflecting: type(of: error)))")
        }
        pairs.sort { $0.key < $1.key }
        let message = event.message.description
        var line = timestamp(date)
        line.reserveCapacity(64 + label.utf8.count + message.utf8.count + pairs.count * 48)
        line += " "
        line += event.level.rawValue
        if !label.isEmpty {
            line += " "
            line += label
        }
        line += ":"
        for (key, value) in pairs {
            line += " "
            line += key
            line += "="
            line += value.description
        }
        line += " ["
        line += event.source
        line += "] "
        line += message
        line += "\n"
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
