import Foundation

@testable import Gramophone

// Vinyls built from fuzz bytes, with the strangeness real servers and proxies send: header
// values with empty pieces, semicolons, commas, quotes, non-ASCII and very long runs, repeated
// headers, odd but valid URLs, every body encoding, errors, dates and durations at their edges.
// Shared by the writer and redaction targets.
enum FuzzVinyl {
    static let methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "get", "M-SEARCH", "PROPFIND", "X_CUSTOM", "QUERY"]
    static let schemes = ["https://", "http://", "HTTP://", "ws://", "ftp://", "custom+scheme.v1-x://"]
    static let hosts = [
        "api.example.com", "EXAMPLE.com", "localhost", "127.0.0.1", "[::1]", "[2001:db8::1]", "xn--bcher-kva.example",
        "user:pa%20ss@h.example", "user@h.example", "a", "h.example.", "sub_domain.example",
    ]
    static let ports = ["", ":443", ":80", ":0", ":65535", ":8080"]
    static let pathPieces = [
        "/", "/users", "/42", "//", "/a;b=c", "/%2F", "/%20", "/%C3%BC", "/..", "/.", "/a,b", "/~x", "/@", "/:x",
        "/v1.2", "/'q'", "/!$&'()*+,;=",
    ]
    static let queryPieces = [
        "?", "?a=1", "&", "&&", "=", "a=", "=b", "b=%26", "access_token=abcd1234", "page=2", "q=a+b", "x=%E2%9C%93",
        "key=sk_live_1234", "a=1;b=2", "?x", "?",
    ]
    static let fragments = ["", "", "#", "#frag", "#a?b", "#%20"]
    static let headerNames = [
        "Set-Cookie", "Cookie", "Content-Type", "content-type", "Authorization", "Proxy-Authorization", "X-Api-Key",
        "X-Auth-Token", "Location", "Content-Encoding", "Content-Length", "Date", "ETag", "Link", "Accept",
        "Cache-Control", "Vary", "X-Empty", ":authority", "X-Ünïcode", "x-dup", "X-Dup", "WWW-Authenticate", "",
    ]
    static let valuePieces = [
        ";", " ; ", ";;", ",", ", ", "\"", "\"a;b\"", "=", "==", " ", "\t", "\\", "session=abc", "Secure",
        "HttpOnly", "Path=/", "Domain=.example.com", "Expires=Wed, 21 Oct 2026 07:28:00 GMT", "Max-Age=0",
        "SameSite=None", "gzip", "br", "identity", "application/json", "text/plain; charset=utf-8",
        "multipart/form-data; boundary=\"x;y\"", "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig",
        "Basic dXNlcjpwYXNz", "token=abcdef123456", "ü", "日本語", "🎉", "e\u{301}", "<redacted>", "REDACTED",
        "W/\"etag\"", "<https://a.example/?page=2>; rel=\"next\"", "0", "-1", "12345678901234567890",
    ]
    static let lineBreaks = ["\r\n", "\n", "\r", "\u{0}", "\r\n "]
    static let contentTypes: [String?] = [
        nil, "application/json", "application/vnd.api+json", "application/problem+json", "text/json",
        "application/json; charset=utf-8", "application/json-seq", "text/plain", "text/html; charset=utf-8",
        "application/x-www-form-urlencoded", "application/xml", "application/javascript", "image/png",
        "application/octet-stream", "multipart/form-data; boundary=b", "",
    ]
    static let jsonBodies = [
        #"{"id":42,"name":"Ada"}"#, #"{"b":[1,2],"a":1.0}"#, #"{ "spaced": true }"#, #""just a string""#, "[]",
        "1e400", #"{"password":"hunter22","token":"abc.def.ghi","nested":{"api_key":"k-1234"}}"#, "null", #"{"a":"\u00e9"}"#,
    ]
    static let textBodies = [
        "ok", "a=1&b=2", "password=hunter22&user=ada", "=token=abc&&x", "<x>ü</x>", "line\r\nline", "\u{FEFF}bom",
        "Bearer abcdefghijklmnop", "-----BEGIN PRIVATE KEY-----", "session=abc; ; Secure", "",
    ]

    /// A vinyl of up to 6 tracks. Header names and values get a line break or NUL only when
    /// `lineBreaks` is set (writers must refuse those).
    static func make(_ input: inout FuzzBytes, lineBreaks: Bool) -> Vinyl {
        let name = input.byte() & 3 == 0 ? input.text(from: ["fuzz", "ü", "a/b", "\"q\"", " ", "<&>"], limit: 3) : "fuzz"
        var tracks: [Track] = []
        for _ in 0..<input.int(7) where !input.isExhausted {
            tracks.append(track(&input, lineBreaks: lineBreaks))
        }
        return Vinyl(name: name, tracks: tracks)
    }

    static func track(_ input: inout FuzzBytes, lineBreaks: Bool) -> Track {
        var headers = self.headers(&input, lineBreaks: lineBreaks)
        let (method, url) = (Self.method(&input), Self.url(&input))
        let body = Self.body(&input, headers: &headers)
        let request = Track.Request(method: method, url: url, headers: headers, body: body)
        let outcome: Track.Outcome
        if input.byte() % 5 == 0 {
            let domains = [NSURLErrorDomain, "NSPOSIXErrorDomain", "kCFErrorDomainCFNetwork", "Custom.Domain", "", "ü"]
            let code = [-1009, -1001, -999, 0, Int(Int32.min), Int(Int32.max), Int(input.byte()) - 128][input.int(7)]
            outcome = .failure(
                Track.Failure(
                    domain: input.pick(domains), code: code, description: input.text(from: ["The Internet connection appears to be offline.", "ü", "\"", "\\", "\n", "\t", "&lt;"], limit: 3)))
        } else {
            var responseHeaders = self.headers(&input, lineBreaks: lineBreaks)
            let responseBody = Self.body(&input, headers: &responseHeaders)
            let status = 100 + Int(input.byte()) * 4 % 900 + input.int(4)
            let responseURL: URL? = [nil, request.url, Self.url(&input)][input.int(3)]
            let version: String? = [nil, "HTTP/1.1", "HTTP/2", "h2", "HTTP/1.0", ""][input.int(6)]
            outcome = .response(Track.Response(status: min(status, 999), headers: responseHeaders, body: responseBody, url: responseURL, httpVersion: version))
        }
        return Track(request: request, outcome: outcome, recordedAt: date(&input), duration: duration(&input))
    }

    static func method(_ input: inout FuzzBytes) -> String {
        guard input.byte() & 7 == 0 else { return input.pick(methods) }
        // A token of letters, `-` and `_`: what every reader accepts as a method.
        let letters = Array("ABCXYZabcxyz-_éß")
        let result = String((0..<(1 + input.int(12))).map { _ in input.pick(letters) })
        return result.contains(where: \.isLetter) ? result : "GET"
    }

    /// An absolute URL from odd but valid pieces; a plain one when the pieces do not parse.
    static func url(_ input: inout FuzzBytes) -> URL {
        var text = input.pick(schemes) + input.pick(hosts) + input.pick(ports)
        for _ in 0..<input.int(4) { text += input.pick(pathPieces) }
        if input.byte() & 1 == 0 {
            text += "?"
            for _ in 0..<input.int(5) { text += input.pick(queryPieces) }
        }
        text += input.pick(fragments)
        if input.byte() & 7 == 0 { text += String(repeating: "/segment", count: 64 + input.int(256)) }
        if input.byte() % 11 == 0 { text = input.pick(["urn:isbn:0451450523", "data:text/plain,hi", "file:///tmp/a%20b", "mailto:a@b.example", "about:blank"]) }
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else { return URL(string: "https://api.example.com/fallback")! }
        return url
    }

    static func headers(_ input: inout FuzzBytes, lineBreaks: Bool) -> Headers {
        var headers = Headers()
        for _ in 0..<input.int(7) {
            var name = input.byte() & 7 == 0 ? input.text(from: ["X-", "Name", "ü", " ", ":", "_"], limit: 3) : input.pick(headerNames)
            var value = input.text(from: valuePieces, limit: 8)
            switch input.byte() & 15 {
            case 0: value = long(input.pick(valuePieces), bytes: 1024 + input.int(64) * 256)  // very long values, up to 17 KB
            case 1: value = ""
            case 2: value = value.trimmingWhitespace()
            default: break
            }
            if lineBreaks, input.byte() & 7 == 0 {
                if input.byte() & 3 == 0 { name += input.pick(Self.lineBreaks) + "X" } else { value += input.pick(Self.lineBreaks) + "X-Injected: 1" }
            }
            headers.add(name: name, value: value)
            if input.byte() & 7 == 0 { headers.add(name: name, value: input.text(from: valuePieces, limit: 3)) }  // a repeat
        }
        return headers
    }

    /// A body in one of the encodings writers choose between, with a `Content-Type` to match (or not).
    static func body(_ input: inout FuzzBytes, headers: inout Headers) -> Data {
        let choice = input.int(8)
        if choice != 7, input.byte() & 1 == 0, let type = input.pick(contentTypes) { headers["Content-Type"] = type }
        switch choice {
        case 0: return Data()
        case 1: return Data(input.pick(jsonBodies).utf8)
        case 2: return Data(input.text(from: textBodies, limit: 4).utf8)
        case 3: return input.data(limit: 64)  // raw bytes, often not UTF-8
        case 4: return Data([0x1F, 0x8B, 0x08, 0x00]) + input.data(limit: 16)  // looks gzipped
        case 5: return Data(long(input.pick(textBodies + jsonBodies), bytes: 4096 + input.int(64) * 512).utf8)  // long, up to 36 KB
        case 6: return Data([0xEF, 0xBB, 0xBF]) + Data(input.pick(jsonBodies).utf8)  // a byte-order mark before JSON
        default: return Data(input.pick(jsonBodies).utf8)  // JSON without a content type
        }
    }

    /// `piece` repeated to about `bytes` UTF-8 bytes: long, but bounded so each run stays fast.
    static func long(_ piece: String, bytes: Int) -> String {
        String(repeating: piece.isEmpty ? "x" : piece, count: max(1, bytes / max(1, piece.utf8.count)))
    }

    /// Nil, the epoch, the edges of years 1-9999, or a date with a sub-millisecond fraction.
    static func date(_ input: inout FuzzBytes) -> Date? {
        switch input.int(6) {
        case 0: return nil
        case 1: return Date(timeIntervalSince1970: 0)
        case 2: return Date(timeIntervalSince1970: input.byte() & 1 == 0 ? GramophoneFormat.dateRange.lowerBound : GramophoneFormat.dateRange.upperBound)
        default:
            let whole = Double(Int32(truncatingIfNeeded: UInt32(input.byte()) << 24 | UInt32(input.byte()) << 16 | UInt32(input.byte()) << 8 | UInt32(input.byte())))
            return Date(timeIntervalSince1970: whole * 4 + Double(input.byte()) / 255 + Double(input.byte()) / 1_000_000)
        }
    }

    /// Nil, zero, the longest allowed, or a fraction of a second to many digits.
    static func duration(_ input: inout FuzzBytes) -> TimeInterval? {
        switch input.int(5) {
        case 0: return nil
        case 1: return 0
        case 2: return GramophoneFormat.maximumDuration
        default: return Double(input.byte()) * 0.137 + Double(input.byte()) / 1_000_003
        }
    }
}
