import Foundation
import Gramophone
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// DVR's own `SessionUploadTests`, ported as the DVR guide spells each call: uploads from data
/// and from a file, answered from DVR's `upload-data` and `upload-file` cassettes unchanged.
@Suite struct DVRSessionUploadTests {
    /// DVR's boundary is `Data`, interpolated into strings as its description ("65 bytes"):
    /// the bodies its cassettes recorded say `--65 bytes`, so the port interpolates it as DVR did.
    static let multipartBoundary = Data("---------------------------3klfenalksjflkjoi9auf89eshajsnl3kjnwal".utf8)

    var request: URLRequest {
        var request = URLRequest(url: URL(string: "https://httpbin.org/post")!)
        request.httpMethod = "POST"
        request.addValue("multipart/form-data; boundary=\(Self.multipartBoundary)", forHTTPHeaderField: "Content-Type")
        return request
    }

    /// DVR's `testfile.txt`, as the test bundle holds it.
    var testFile: URL { TestFiles.fixture("dvr/testfile.txt") }

    @Test func uploadFile() async throws {
        let session = try DVRSessionTests.cassette("upload-file", recordingEnabled: false)
        let data = encodeMultipartBody(try Data(contentsOf: testFile))
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("upload-file.tmp")
        try data.write(to: file, options: .atomic)
        let calls = HandlerCalls<HandlerCall>()
        session.uploadTask(with: request, fromFile: file, completionHandler: calls.handler).resume()
        try expectFormFile(await calls.first(1)[0])
    }

    @Test func uploadData() async throws {
        let session = try DVRSessionTests.cassette("upload-data", recordingEnabled: false)
        let data = encodeMultipartBody(try Data(contentsOf: testFile))
        let calls = HandlerCalls<HandlerCall>()
        session.uploadTask(with: request, from: data, completionHandler: calls.handler).resume()
        try expectFormFile(await calls.first(1)[0])
    }

    private func expectFormFile(_ call: HandlerCall) throws {
        let json = try JSONSerialization.jsonObject(with: try #require(call.data)) as? [String: Any]
        #expect((json?["form"] as? [String: Any])?["file"] as? String == "test file\n")
        #expect(call.status == 200)
    }

    /// DVR's multipart body: one `file` part holding `data`.
    private func encodeMultipartBody(_ data: Data) -> Data {
        var body = Data("--\(Self.multipartBoundary)\r\n".utf8)
        body += Data("Content-Disposition: form-data; name=\"file\"\r\n\r\n".utf8)
        body += data
        body += Data("\r\n--\(Self.multipartBoundary)--\r\n".utf8)
        return body
    }
}
