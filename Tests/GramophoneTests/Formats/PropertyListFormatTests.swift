import Foundation
import Testing

@testable import Gramophone

/// Property-list vinyls: the native structure with bodies as `<data>`, byte-exact.
@Suite struct PropertyListFormatTests {
    @Test func bodiesAreDataAndComeBackByteExact() throws {
        let bytes = Data((0...255).map(UInt8.init))
        let vinyl = Vinyl(
            name: "bytes",
            tracks: [
                Track(
                    Track.Request(method: "PUT", url: URL(string: "https://a.example/upload?x=1")!, headers: ["Content-Type": "text/plain"], body: bytes),
                    .data(bytes, contentType: "text/plain"))
            ])
        let data = try vinyl.encoded(as: .plist)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("<data>"))
        #expect(text.hasPrefix("<?xml"))
        #expect(try Vinyl(data: data, name: "other") == vinyl)
    }

    @Test func aMethodNoOtherReaderAcceptsIsRefusedWithItsPlace() throws {
        // Read as written, it was kept, and the vinyl written as JSON then did not read back
        // (found by the VinylWriters fuzz target): every reader checks a method alike.
        let vinyl = Vinyl(name: "m", tracks: [Track(Track.Request(method: "GET", url: URL(string: "https://a.example/")!), .status(204))])
        let text = String(decoding: try vinyl.encoded(as: .plist), as: UTF8.self)
            .replacingOccurrences(of: "<string>GET</string>", with: "<string>\"RESPONSE\"GET</string>")
        expectMalformed(place: "tracks[0].request.method", problem: "is not an HTTP method") {
            _ = try Vinyl(data: Data(text.utf8), name: "m", format: .plist)
        }
    }

    /// The writer is ours (Foundation's is slow on Linux); it lays the file out as Foundation
    /// does, so a vinyl rewritten on another platform reads the same in review.
    @Test func theWriterLaysOutTheFileAsFoundationDoes() throws {
        let long = Data((0..<700).map { UInt8($0 % 251) })
        let vinyl = Vinyl(
            name: "a & b <c>",
            tracks: [
                Track(
                    request: Track.Request(method: "POST", url: URL(string: "https://a.example/x?q=1&r=2")!, headers: ["X-Quote": "\"a\" & 'b' > c", "X-Empty": ""], body: long),
                    outcome: .response(Track.Response(status: 201, headers: ["Content-Type": "application/octet-stream"], body: long, url: nil, httpVersion: "HTTP/2")),
                    recordedAt: Date(timeIntervalSince1970: 1_700_000_000.123), duration: 0.1),
                Track(request: Track.Request(url: URL(string: "https://a.example/down")!), outcome: .failure(Track.Failure(domain: "NSURLErrorDomain", code: -1009, description: "offline \u{1} ✓"))),
            ])
        let ours = try vinyl.encoded(as: .plist)
        let root: [String: Any] = [
            "gramophone": GramophoneFormat.version, "name": vinyl.name,
            "tracks": [
                [
                    "request": [
                        "method": "POST", "url": "https://a.example/x?q=1&r=2", "headers": [["name": "X-Quote", "value": "\"a\" & 'b' > c"], ["name": "X-Empty", "value": ""]], "body": long,
                    ] as [String: Any],
                    "response": ["status": 201, "headers": [["name": "Content-Type", "value": "application/octet-stream"]], "body": long, "httpVersion": "HTTP/2"] as [String: Any],
                    "recordedAt": ISO8601.format(Date(timeIntervalSince1970: 1_700_000_000.123)),
                    "duration": 0.1,
                ] as [String: Any],
                [
                    "request": ["method": "GET", "url": "https://a.example/down", "headers": [] as [Any]] as [String: Any],
                    "error": ["domain": "NSURLErrorDomain", "code": -1009, "description": "offline \u{1} ✓"] as [String: Any],
                ],
            ] as [Any],
        ]
        let foundations = try PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0)
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: foundations, as: UTF8.self))
        #expect(try Vinyl(data: ours, name: "other") == vinyl)
    }

    @Test func realsAreSpelledAsFoundationSpellsThem() throws {
        let values: [Double] = [0, -0.0, 0.1, 2, -1e-5, .infinity, -.infinity, .nan, 86_400, 1.0 / 3]
        let foundations = try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0)
        let spelled = String(decoding: foundations, as: UTF8.self).components(separatedBy: "\n").filter { $0.contains("<real>") }
        #expect(spelled == values.map { "\t<real>\(PropertyListWriter.realText($0))</real>" })
    }

    @Test(arguments: ["-1", "nan", "+infinity", "86401"])
    func aDurationOutsideADayIsRefusedWithItsPlace(_ text: String) {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>tracks</key><array><dict>
              <key>request</key><dict><key>url</key><string>https://a.example/</string></dict>
              <key>response</key><dict><key>status</key><integer>204</integer></dict>
              <key>duration</key><real>\(text)</real>
            </dict></array></dict></plist>
            """
        #expect(throws: VinylError.self) { try Vinyl(data: Data(plist.utf8), name: "d", format: .plist) }
        do {
            _ = try Vinyl(data: Data(plist.utf8), name: "d", format: .plist)
        } catch let error as VinylError {
            #expect(error.place?.contains("duration") == true)
        } catch {
            Issue.record("not a VinylError: \(error)")
        }
    }

    @Test func durationsReadBackExactly() throws {
        for duration in [0, 0.1, 1e-5, 1.0 / 3, 86_400, .leastNonzeroMagnitude, 0.30000000000000004] {
            let vinyl = Vinyl(name: "d", tracks: [Track(request: Track.Request(url: URL(string: "https://a.example/")!), outcome: .status(204), recordedAt: nil, duration: duration)])
            #expect(try Vinyl(data: vinyl.encoded(as: .plist), name: "d").tracks[0].duration == duration)
        }
    }

    @Test func handWrittenPlistWithDictionaryHeadersAndTextBodies() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
              <key>tracks</key><array><dict>
                <key>request</key><dict><key>url</key><string>https://a.example/users</string></dict>
                <key>response</key><dict>
                  <key>status</key><integer>200</integer>
                  <key>headers</key><dict><key>Content-Type</key><string>application/json</string></dict>
                  <key>body</key><string>[1,2]</string>
                </dict>
              </dict></array>
            </dict></plist>
            """
        let vinyl = try Vinyl(data: Data(plist.utf8), name: "hand")
        #expect(vinyl.name == "hand")
        #expect(vinyl.tracks.first?.request.method == "GET")
        #expect(vinyl.tracks.first?.response?.headers["Content-Type"] == "application/json")
        #expect(vinyl.tracks.first?.response?.body == Data("[1,2]".utf8))
    }

    @Test func missingStatusNamesItsPlace() {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>tracks</key><array><dict>
              <key>request</key><dict><key>url</key><string>https://a.example/</string></dict>
              <key>response</key><dict/>
            </dict></array></dict></plist>
            """
        #expect {
            try Vinyl(data: Data(plist.utf8), name: "bad", file: "bad.plist")
        } throws: { error in
            (error as? VinylError)?.place == "tracks[0].response" && (error as? VinylError)?.file == "bad.plist"
        }
    }

    @Test func brokenXMLIsMalformedNotACrash() {
        #expect(throws: VinylError.self) {
            try Vinyl(data: Data("<?xml version=\"1.0\"?><plist><dict><key>tracks</key>".utf8), name: "broken", format: .plist)
        }
    }
}
