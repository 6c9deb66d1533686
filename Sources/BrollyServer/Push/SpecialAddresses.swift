/// Which addresses a push may be sent to: every range of IANA's IPv4 and IPv6 Special-Purpose
/// Address Registries is refused (RFC 6890 and its updates), with multicast, reserved and
/// everything outside IPv6's global unicast space (2000::/3); an IPv4 address carried inside an
/// IPv6 one — IPv4-mapped, IPv4-compatible, NAT64 (64:ff9b::/96) or 6to4 (2002::/16) — is
/// unwrapped and judged as IPv4. Teredo (2001::/32) hides its client's address and is refused with
/// the rest of 2001::/23.
enum SpecialAddresses {
    /// A prefix: the first `length` bits of `bytes`.
    struct Prefix {
        let bytes: [UInt8]
        let length: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var bits = length
            for (a, p) in zip(address, bytes) {
                if bits <= 0 { return true }
                let mask: UInt8 = bits >= 8 ? 0xff : UInt8(truncatingIfNeeded: 0xff << (8 - bits))
                if a & mask != p & mask { return false }
                bits -= 8
            }
            return true
        }
    }

    static func v4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, _ length: Int) -> Prefix {
        Prefix(bytes: [a, b, c, d], length: length)
    }

    static func v6(_ groups: [UInt16], _ length: Int) -> Prefix {
        let padded = groups + [UInt16](repeating: 0, count: 8 - groups.count)
        return Prefix(bytes: padded.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }, length: length)
    }

    /// IANA's IPv4 Special-Purpose Address Registry, multicast and the limited broadcast.
    static let ipv4: [Prefix] = [
        v4(0, 0, 0, 0, 8),  // "this network"
        v4(10, 0, 0, 0, 8),  // private use
        v4(100, 64, 0, 0, 10),  // shared address space (carrier-grade NAT)
        v4(127, 0, 0, 0, 8),  // loopback
        v4(169, 254, 0, 0, 16),  // link local
        v4(172, 16, 0, 0, 12),  // private use
        v4(192, 0, 0, 0, 24),  // IETF protocol assignments
        v4(192, 0, 2, 0, 24),  // documentation (TEST-NET-1)
        v4(192, 31, 196, 0, 24),  // AS112-v4
        v4(192, 52, 193, 0, 24),  // AMT
        v4(192, 88, 99, 0, 24),  // deprecated 6to4 relay anycast
        v4(192, 168, 0, 0, 16),  // private use
        v4(192, 175, 48, 0, 24),  // direct delegation AS112
        v4(198, 18, 0, 0, 15),  // benchmarking
        v4(198, 51, 100, 0, 24),  // documentation (TEST-NET-2)
        v4(203, 0, 113, 0, 24),  // documentation (TEST-NET-3)
        v4(224, 0, 0, 0, 4),  // multicast
        v4(240, 0, 0, 0, 4),  // reserved, and 255.255.255.255
    ]

    /// IANA's IPv6 Special-Purpose Address Registry, within the global unicast space 2000::/3
    /// (everything outside it is refused anyway).
    static let ipv6Global: [Prefix] = [
        v6([0x2001], 23),  // IETF protocol assignments: Teredo, benchmarking, ORCHID, …
        v6([0x2001, 0x0db8], 32),  // documentation
        v6([0x2620, 0x004f, 0x8000], 48),  // direct delegation AS112
        v6([0x3fff], 20),  // documentation (RFC 9637)
    ]

    static let globalUnicast = v6([0x2000], 3)
    static let mapped = Prefix(bytes: [UInt8](repeating: 0, count: 10) + [0xff, 0xff] + [0, 0, 0, 0], length: 96)
    static let compatible = Prefix(bytes: [UInt8](repeating: 0, count: 16), length: 96)
    static let nat64 = v6([0x0064, 0xff9b], 96)
    static let sixToFour = v6([0x2002], 16)

    /// The IPv4 address an IPv6 address carries, where it carries one.
    static func embeddedIPv4(_ a: [UInt8]) -> [UInt8]? {
        guard a.count == 16 else { return nil }
        if mapped.contains(a) || compatible.contains(a) || nat64.contains(a) { return Array(a[12..<16]) }
        if sixToFour.contains(a) { return Array(a[2..<6]) }
        return nil
    }

    /// True when a push must never go to `address` (4 or 16 bytes; anything else is refused too).
    static func isRefused(_ address: [UInt8]) -> Bool {
        switch address.count {
        case 4: return ipv4.contains { $0.contains(address) }
        case 16:
            if let inner = embeddedIPv4(address) { return isRefused(inner) }
            return !globalUnicast.contains(address) || ipv6Global.contains { $0.contains(address) }
        default: return true
        }
    }

    /// Loopback only (127.0.0.0/8, ::1, or loopback carried in IPv6): what tests may push to.
    static func isLoopback(_ address: [UInt8]) -> Bool {
        if address.count == 4 { return address[0] == 127 }
        if address == [UInt8](repeating: 0, count: 15) + [1] { return true }
        return embeddedIPv4(address).map(isLoopback) ?? false
    }
}
