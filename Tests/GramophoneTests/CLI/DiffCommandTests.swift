import Foundation
import Testing

@testable import Gramophone

/// `gramophone diff`: two recordings of one flow, the fields that differ, and a `matching:`
/// line that really makes B's requests find A's tracks.
@Suite struct DiffCommandTests {
    /// One run of a flow: a JSON report, a form search, a multipart upload, a GraphQL mutation.
    static func flow(_ run: Int, answer: String) -> Vinyl {
        let ts = 1_700_000_000 + run
        let boundary = "Boundary-\(UUID().uuidString)"
        var upload = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"nonce\"\r\n\r\nn\(run)\r\n".utf8)
        upload += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
        upload += Data(repeating: 7, count: 1_024) + Data("\r\n--\(boundary)--\r\n".utf8)
        return Vinyl(
            name: "run\(run)",
            tracks: [
                Track(
                    Track.Request(method: "POST", url: URL(string: "https://api.example.com/report?v=2&ts=\(ts)")!).header("User-Agent", "Flow/\(run)")
                        .body(Data(#"{"meta":{"requestId":"r-\#(run)"},"items":[{"id":1,"timestamp":\#(ts)},{"id":2,"timestamp":\#(ts)}]}"#.utf8), contentType: "application/json"), .text("\(answer)0")
                ),
                Track(Track.Request("POST https://api.example.com/search").body(Data("q=nina&nonce=n\(run)".utf8), contentType: "application/x-www-form-urlencoded"), .text("\(answer)1")),
                Track(Track.Request("POST https://api.example.com/upload").body(upload, contentType: "multipart/form-data; boundary=\(boundary)"), .text("\(answer)2")),
                Track(
                    Track.Request("POST https://api.github.com/graphql").body(
                        Data(
                            #"{"query":"mutation AddStar($input: AddStarInput!) { addStar(input: $input) { clientMutationId } }","variables":{"input":{"starrableId":"R1","clientMutationId":"m-\#(run)"}}}"#
                                .utf8), contentType: "application/json"), .text("\(answer)3")),
            ])
    }

    @Test func printsEachDifferingFieldAndAMatchingLineThatWorks() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = Self.flow(1, answer: "a"), b = Self.flow(2, answer: "b")
        try a.write(to: folder.appendingPathComponent("a.json"))
        try b.write(to: folder.appendingPathComponent("b.json"))

        let result = try await CLITests.run("diff", folder.appendingPathComponent("a.json").path, folder.appendingPathComponent("b.json").path)
        #expect(result.status == 1, "recordings that differ exit 1")
        let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for expected in [
            "query ts: 1700000001 vs 1700000002",
            "header User-Agent: Flow/1 vs Flow/2",
            #"body.meta.requestId: "r-1" vs "r-2""#,
            "body.items[1].timestamp: 1700000001 vs 1700000002",
            #"body form field "nonce": n1 vs n2"#,
            #"multipart part "nonce": n1 vs n2"#,
            #"graphQL variables.input.clientMutationId: "m-1" vs "m-2""#,
        ] { #expect(lines.contains(expected), "\(expected)\n\(result.stdout)") }
        #expect(!result.stdout.contains("boundary"), "the boundary is not a difference")
        let matching =
            #"[.method, .host, .path, .query(ignoring: ["ts"]), .allHeaders(excluding: ["User-Agent"]), .graphQL(ignoring: ["meta.requestId", "items[].timestamp", "nonce", "input.clientMutationId"])]"#
        #expect(lines.contains("matching: \(matching)"), "\(result.stdout)")

        // The printed line, written as Swift: B's requests get A's answers.
        let turntable = Turntable(
            vinyl: a,
            matching: [
                .method, .host, .path, .query(ignoring: ["ts"]), .allHeaders(excluding: ["User-Agent"]),
                .graphQL(ignoring: ["meta.requestId", "items[].timestamp", "nonce", "input.clientMutationId"]),
            ])
        for (index, track) in b.tracks.enumerated() {
            let (data, _) = try await turntable.data(for: track.request.urlRequest)
            #expect(String(decoding: data, as: UTF8.self) == "a\(index)")
        }
    }

    @Test func identicalRecordingsExitZero() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = Self.flow(1, answer: "a")
        try a.write(to: folder.appendingPathComponent("a.json"))
        // The same requests in another format, with other responses: only requests count.
        try Vinyl(name: "b", tracks: a.tracks.map { Track(request: $0.request, outcome: .text("other")) }).write(to: folder.appendingPathComponent("b.har"), format: .har)
        let result = try await CLITests.run("diff", folder.appendingPathComponent("a.json").path, folder.appendingPathComponent("b.har").path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("identical: 4 tracks paired, no request field differs"))
    }

    @Test func jsonForToolsNamesWhatCannotBeIgnored() async throws {
        let folder = try TestFiles.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = Vinyl(name: "a", tracks: [Track("GET https://api.example.com/users?page=1&ts=1", .text("1"))])
        let b = Vinyl(
            name: "b",
            tracks: [
                Track("GET https://api.example.com/users?page=1&ts=2", .text("1")),
                Track("DELETE https://api.example.com/users/1", .status(204)),
            ])
        try a.write(to: folder.appendingPathComponent("a.json"))
        try b.write(to: folder.appendingPathComponent("b.json"))
        let result = try await CLITests.run("diff", "--json", folder.appendingPathComponent("a.json").path, folder.appendingPathComponent("b.json").path)
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["identical"] as? Bool == false)
        #expect(object["onlyInB"] as? [Int] == [1])
        #expect(object["matching"] as? String == #"[.method, .host, .path, .query(ignoring: ["ts"]), .allHeaders(), .body]"#)
        let pairs = try #require(object["pairs"] as? [[String: Any]])
        let differences = try #require(pairs.first?["differences"] as? [[String: Any]])
        #expect(differences.first?["kind"] as? String == "query")
        #expect(differences.first?["name"] as? String == "ts")
        #expect(differences.first?["line"] as? String == "query ts: 1 vs 2")
    }

    @Test func usage() async throws {
        let help = try await CLITests.run("diff", "--help")
        #expect(help.status == 0 && help.stdout.contains("USAGE: gramophone diff A B [--json]") && help.stdout.contains("EXIT CODES:"))
        #expect(try await CLITests.run("--help").stdout.contains("  diff "))
        let one = try await CLITests.run("diff", "a.json")
        #expect(one.status == 2 && one.stderr.contains("diff needs two files"))
        let missing = try await CLITests.run("diff", "/nonexistent/a.json", "/nonexistent/b.json")
        #expect(missing.status == 1 && missing.stderr.contains("/nonexistent/a.json: no such file"))
    }
}
