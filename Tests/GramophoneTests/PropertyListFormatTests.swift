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
