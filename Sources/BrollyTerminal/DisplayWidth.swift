import Foundation

extension String {
    /// The columns a terminal gives the text: East Asian wide and fullwidth characters (kanji,
    /// kana, hangul, fullwidth forms, most emoji) two, combining marks, zero-width and
    /// direction-control characters none, anything else one. Columns of Japanese and Arabic text
    /// line up by this, not by the count of characters.
    public var displayWidth: Int {
        unicodeScalars.reduce(0) { $0 + Self.columns($1) }
    }

    /// Padded with spaces to `width` columns (never cut).
    public func padded(toWidth width: Int) -> String {
        let w = displayWidth
        return w >= width ? self : self + String(repeating: " ", count: width - w)
    }

    /// The longest start of the text that fits in `width` columns.
    public func truncated(toWidth width: Int) -> String {
        var out = ""
        var used = 0
        for c in self {
            let w = String(c).displayWidth
            if used + w > width { break }
            out.append(c)
            used += w
        }
        return out
    }

    /// The text in lines of at most `width` columns, broken at spaces; a word longer than a line
    /// (Japanese and Chinese write a sentence without one) is broken where the width ends. One
    /// line when it fits.
    public func wrapped(toWidth width: Int) -> [String] {
        guard displayWidth > width else { return [self] }
        var lines: [String] = []
        var line = ""
        for word in split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            if line.isEmpty {
                line = word
            } else if line.displayWidth + 1 + word.displayWidth <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
            while line.displayWidth > width {
                let head = line.truncated(toWidth: width)
                guard !head.isEmpty else { break }
                lines.append(head)
                line = String(line.dropFirst(head.count))
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// Spaces first, to `width` columns (never cut).
    public func leftPadded(toWidth width: Int) -> String {
        let w = displayWidth
        return w >= width ? self : String(repeating: " ", count: width - w) + self
    }

    static func columns(_ s: Unicode.Scalar) -> Int {
        let v = s.value
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v == 0x200B || (0xFE00...0xFE0F).contains(v) { return 0 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
            0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(v) } ? 2 : 1
    }
}
