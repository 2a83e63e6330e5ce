import Foundation

/// Which requests a recording Turntable records and replays; the others go to the real
/// session untouched (not matched, not recorded, not redacted), whatever the record mode.
///
/// ```swift
/// Recording(hosts: .only(["api.example.com"]))          // a list (subdomains included)
/// Recording(hosts: .matching { $0.hasSuffix(".example.com") })   // a closure over the host
/// ```
public struct HostFilter: Sendable {
    private let allows: @Sendable (String) -> Bool

    /// Decides with a closure that receives the request's host, lowercased ("" when none).
    public init(_ allows: @escaping @Sendable (String) -> Bool) {
        self.allows = allows
    }

    /// Every host: the default.
    public static let all = HostFilter { _ in true }

    /// Only `hosts` and their subdomains (`example.com` covers `api.example.com`), compared ignoring case.
    public static func only(_ hosts: [String]) -> HostFilter {
        let allowed = hosts.map { $0.lowercased() }
        return HostFilter { host in
            allowed.contains { host == $0 || host.hasSuffix("." + $0) }
        }
    }

    /// Hosts for which `rule` returns true.
    public static func matching(_ rule: @escaping @Sendable (String) -> Bool) -> HostFilter {
        HostFilter(rule)
    }

    /// Whether requests to `url` are recorded and replayed.
    public func allows(_ url: URL) -> Bool {
        allows((url.host ?? "").lowercased())
    }
}
