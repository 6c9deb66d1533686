import Foundation
import NIOCore

/// The key a client's address is counted under for every per-address limit (connections, the
/// upstream allowance, new devices, push subscriptions): an IPv4 address itself; an IPv6
/// address's /64 — one subscriber's network, which hands its hosts any of 2⁶⁴ addresses, so the
/// full address made the limits per-address in name only (issue 52) — and an IPv4-mapped IPv6
/// address its IPv4 address.
enum ClientAddress {
    static func limitKey(_ ip: String) -> String {
        // On the bytes: Foundation's `contains` of a string was most of a cookie-less read's own cost.
        guard ip.utf8.contains(UInt8(ascii: ":")) else { return ip }
        var address = in6_addr()
        let text = ip.split(separator: "%", maxSplits: 1).first.map(String.init) ?? ip  // a zone (fe80::1%eth0) apart
        guard inet_pton(AF_INET6, text, &address) == 1 else { return ip }
        var bytes = withUnsafeBytes(of: &address) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
            return literal(Array(bytes[12..<16])) ?? ip
        }
        for i in 8..<16 { bytes[i] = 0 }
        return literal(bytes).map { $0 + "/64" } ?? ip
    }

    /// The text of a peer's address, as NIO's `ipAddress` gives it: an IPv4 address written here
    /// from its four bytes (glibc's `inet_ntop` formats them with `sprintf`, on every request that
    /// needs its client's address), any other address by NIO.
    static func text(of address: SocketAddress) -> String? {
        guard case .v4(let v4) = address else { return address.ipAddress }
        let value = UInt32(bigEndian: v4.address.sin_addr.s_addr)
        var out = [UInt8]()
        out.reserveCapacity(15)
        for shift in [24, 16, 8, 0] as [UInt32] {
            let byte = UInt8(truncatingIfNeeded: value >> shift)
            if byte >= 100 { out.append(0x30 + byte / 100) }
            if byte >= 10 { out.append(0x30 + byte / 10 % 10) }
            out.append(0x30 + byte % 10)
            if shift != 0 { out.append(UInt8(ascii: ".")) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An address's bytes (4 or 16) as an IP literal ("93.184.216.34", "2606:4700::1111").
    static func literal(_ bytes: [UInt8]) -> String? {
        let family: Int32
        switch bytes.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return nil
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let ok = bytes.withUnsafeBytes { raw in inet_ntop(family, raw.baseAddress, &text, socklen_t(text.count)) != nil }
        return ok ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }
}
