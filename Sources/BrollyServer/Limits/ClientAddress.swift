import Foundation

/// The key a client's address is counted under for every per-address limit (connections, the
/// upstream allowance, new devices, push subscriptions): an IPv4 address itself; an IPv6
/// address's /64 — one subscriber's network, which hands its hosts any of 2⁶⁴ addresses, so the
/// full address made the limits per-address in name only (issue 52) — and an IPv4-mapped IPv6
/// address its IPv4 address.
enum ClientAddress {
    static func limitKey(_ ip: String) -> String {
        guard ip.contains(":") else { return ip }
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
