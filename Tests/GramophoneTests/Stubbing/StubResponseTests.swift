import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Each kind of stub response, as a client of a Turntable receives it.
@Suite struct StubResponseTests {
    private func get(_ turntable: Turntable, _ url: String, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await turntable.data(for: request)
        return (data, try #require(response as? HTTPURLResponse))
    }

    private func turntable(_ stub: Stub) -> Turntable {
        let turntable = Turntable(vinyl: Vinyl(name: "empty"))
        turntable.stubs.add(stub)
        return turntable
    }

    @Test func statusHeadersAndContentType() async throws {
        let tt = turntable(Stub().responding(with: .text("created", status: 201, contentType: "text/x-note").header("Location", "/items/9")))
        let (data, response) = try await get(tt, "https://x.test/items")
        #expect(response.statusCode == 201)
        #expect(response.value(forHTTPHeaderField: "location") == "/items/9")
        #expect(response.value(forHTTPHeaderField: "content-type") == "text/x-note")
        #expect(String(decoding: data, as: UTF8.self) == "created")
    }

    @Test func dataBodyIsReturnedByteForByte() async throws {
        let bytes = Data((0..<256).map { UInt8($0) })
        let (data, response) = try await get(turntable(Stub().responding(with: .data(bytes, contentType: "application/octet-stream"))), "https://x.test/blob")
        #expect(data == bytes)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
    }

    struct User: Codable, Equatable { var id: Int; var name: String }

    @Test func encodableBodyIsJSONWithContentType() async throws {
        let (data, response) = try await get(turntable(Stub().responding(with: try .json(encoding: User(id: 7, name: "Ada")))), "https://x.test/users/7")
        #expect(try JSONDecoder().decode(User.self, from: data) == User(id: 7, name: "Ada"))
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test func jsonTextIsServedByteForByte() async throws {
        // The trap of 0.x: `.json` of a String encoded it as a JSON string ("{\"id\":42}").
        let (data, response) = try await get(turntable(Stub().responding(with: .json(#"{"id":42}"#))), "https://x.test/")
        #expect(data == Data(#"{"id":42}"#.utf8))
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json")
        // A track and a stub built from the same factory carry the same response.
        let track = Track("GET https://x.test/", .json(#"{"id":42}"#, status: 201, headers: ["X-A": "1"]))
        let stubbed = try await get(turntable(Stub().responding(with: .json(#"{"id":42}"#, status: 201, headers: ["X-A": "1"]))), "https://x.test/")
        let replayed = try await get(Turntable(vinyl: Vinyl(name: "t", tracks: [track])), "https://x.test/")
        #expect(stubbed.0 == replayed.0 && stubbed.1.statusCode == replayed.1.statusCode)
        #expect(stubbed.1.value(forHTTPHeaderField: "X-A") == "1" && replayed.1.value(forHTTPHeaderField: "X-A") == "1")
    }

    @Test func dataDefaultsToOctetStreamForTracksAndStubs() async throws {
        let bytes = Data([0, 1, 2])
        let stubbed = try await get(turntable(Stub().responding(with: .data(bytes))), "https://x.test/")
        let replayed = try await get(Turntable(vinyl: Vinyl(name: "t", tracks: [Track("GET https://x.test/", .data(bytes))])), "https://x.test/")
        #expect(stubbed.1.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
        #expect(replayed.1.value(forHTTPHeaderField: "Content-Type") == "application/octet-stream")
        #expect(stubbed.0 == bytes && replayed.0 == bytes)
    }

    @Test func fileBodyIsReadWithContentTypeFromExtension() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("note.txt")
        try Data("a note from a file\n".utf8).write(to: file)
        let (data, response) = try await get(turntable(Stub().responding(with: try .file(file))), "https://x.test/file")
        #expect(data == (try Data(contentsOf: file)))
        #expect(response.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/plain") == true)
        do {
            _ = try StubResponse.file(URL(fileURLWithPath: "/nonexistent/body.json"))
            Issue.record("a missing file must throw")
        } catch {
            #expect(error.description.contains("/nonexistent/body.json"))
        }
    }

    @Test func errorResponsesFailTheRequest() async throws {
        let tt = turntable(Stub().responding(with: .error(.notConnectedToInternet)))
        await #expect(throws: URLError.self) { try await get(tt, "https://x.test/") }
        do {
            _ = try await get(tt, "https://x.test/")
        } catch let error as URLError {
            #expect(error.code == .notConnectedToInternet)
        }
        let custom = turntable(Stub().responding(with: .dynamic { _ in throw NSError(domain: "Billing", code: 402) }))
        do {
            _ = try await get(custom, "https://x.test/")
            Issue.record("expected an error")
        } catch {
            #expect((error as NSError).domain == "Billing")
            #expect((error as NSError).code == 402)
        }
    }

    @Test func networkDownFailsEvenAStubWithAResponse() async throws {
        let tt = turntable(Stub().responding(with: .text("never seen").delivered(.down)))
        do {
            _ = try await get(tt, "https://x.test/")
            Issue.record("expected the network to be down")
        } catch let error as URLError {
            #expect(error.code == .notConnectedToInternet)
        }
    }

    @Test func dynamicResponseSeesTheRequestAndCapturedVariables() async throws {
        let stub = try Stub()
            .matching(.path("/users/{id}"))
            .responding(
                to: "POST",
                with: .dynamic { request in
                    struct Body: Decodable { var name: String }
                    let body = try request.decodeJSON(Body.self)
                    return try .json(encoding: User(id: Int(request.variables["id"] ?? "") ?? -1, name: body.name), status: 201)
                })
        let (data, response) = try await get(turntable(stub), "https://x.test/users/12", method: "POST", body: Data(#"{"name":"Grace"}"#.utf8))
        #expect(response.statusCode == 201)
        #expect(try JSONDecoder().decode(User.self, from: data) == User(id: 12, name: "Grace"))
    }

    @Test func dynamicProviderErrorFailsTheRequest() async throws {
        struct Refused: Error {}
        let tt = turntable(Stub().responding(with: .dynamic { _ in throw Refused() }))
        await #expect(throws: Refused.self) { try await get(tt, "https://x.test/") }
    }

    @Test func echoReturnsTheRequest() async throws {
        let tt = turntable(Stub().responding(with: .echo()))
        let (data, response) = try await get(tt, "https://x.test/echo?q=1", method: "PUT", body: Data("hello".utf8), headers: ["X-Trace": "abc"])
        #expect(response.statusCode == 200)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["method"] as? String == "PUT")
        #expect(object["url"] as? String == "https://x.test/echo?q=1")
        #expect(object["body"] as? String == "hello")
        let headers = try #require(object["headers"] as? [String: String])
        #expect(headers.first { $0.key.lowercased() == "x-trace" }?.value == "abc")
    }

    @Test func placeholdersAreFilledFromVariablesThenValues() async throws {
        let tt = turntable(try Stub().matching(.path("/greet/{name}")).responding(with: .text("Hello {{ name }}, welcome to {{site}}; {{ unknown }} stays")))
        tt.stubs.placeholders = ["site": "Gramophone", "name": "overridden by the path"]
        let (data, _) = try await get(tt, "https://x.test/greet/Ada")
        #expect(String(decoding: data, as: UTF8.self) == "Hello Ada, welcome to Gramophone; {{ unknown }} stays")
    }

    @Test func delayedResponseArrivesNoSooner() async throws {
        let tt = turntable(Stub().responding(with: .text("late").delivered(.delayed(0.3))))
        let clock = ContinuousClock()
        let start = clock.now
        let (data, _) = try await get(tt, "https://x.test/")
        #expect(clock.now - start >= .milliseconds(290))
        #expect(String(decoding: data, as: UTF8.self) == "late")
    }

    @Test func throughputPlanSpreadsTheBodyOverTime() {
        // 64 KiB at 512 kbps (64 000 bytes/s): about 1 s, in chunks of a tenth of a second.
        let plan = NetworkCondition.throughput(.dsl).deliveryPlan(byteCount: 64 * 1024)
        #expect(plan.chunks.count > 5)
        #expect(plan.chunks.reduce(0) { $0 + $1.size } == 64 * 1024)
        let total = plan.chunks.reduce(0) { $0 + $1.delay }
        #expect(total > 1.0 && total < 1.1)
        #expect(ConnectionSpeed.gprs.bitsPerSecond == 56_000)
        #expect(ConnectionSpeed.threeG.bitsPerSecond == 3_200_000)
    }
}
