import Foundation
import Testing

@testable import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `.graphQL` against requests in the shape of GitHub's GraphQL API (Resources/GraphQL): every
/// request is a POST (or GET) to one URL, so only the operations tell them apart.
@Suite struct GraphQLMatchingTests {
    static let endpoint = URL(string: "https://api.github.com/graphql")!

    static func vinyl() throws -> Vinyl {
        try Vinyl(contentsOf: TestFiles.fixtures.deletingLastPathComponent().appendingPathComponent("GraphQL/github-graphql.json"))
    }

    static func post(_ json: String) -> URLRequest {
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(json.utf8)
        return request
    }

    static func get(_ items: [URLQueryItem]) -> URLRequest {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        components.queryItems = items
        return URLRequest(url: components.url!)
    }

    func answer(_ turntable: Turntable, _ request: URLRequest) async throws -> String {
        String(decoding: try await turntable.data(for: request).0, as: UTF8.self)
    }

    @Test func documentsMatchWhateverTheirWhitespaceCommasAndComments() async throws {
        let turntable = Turntable(vinyl: try Self.vinyl(), matching: [.method, .url, .graphQL])
        // The same operation as recorded, written on one line with commas and a comment, keys reordered.
        let query =
            #"query GetRepository($owner: String!, $name: String!) { # which repository\n repository(owner: $owner, name: $name) { name, stargazerCount, issues(first: 2, states: [OPEN]) { nodes { number, title } } } }"#
        let body = #"{"variables":{"name":"swift-nio","owner":"apple"},"query":"\#(query)","operationName":"GetRepository"}"#
        #expect(try await answer(turntable, Self.post(body)).contains(#""swift-nio""#))
        let swift = #"{"variables":{"name":"swift","owner":"apple"},"query":"\#(query)"}"#
        #expect(try await answer(turntable, Self.post(swift)).contains(#""name":"swift""#), "the operation name is read from the document when not sent")
        #expect(try await answer(turntable, Self.post(#"{"query":"query GetViewer {\n  viewer {\n    login\n    name\n  }\n}"}"#)).contains("octocat"))
    }

    @Test func missesNameTheOperationTheQueryAndTheVariables() async throws {
        let turntable = Turntable(vinyl: try Self.vinyl(), matching: [.method, .url, .graphQL])
        // Every track is a POST to one URL and fails `.graphQL`: the report compares with the
        // track that differs in the fewest places (the same operation), not the first one.
        do {
            _ = try await turntable.data(
                for: Self.post(
                    #"{"operationName":"GetRepository","query":"query GetRepository($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { name stargazerCount issues(first: 2, states: [OPEN]) { nodes { number title } } } }","variables":{"owner":"apple","name":"swift-format"}}"#
                ))
            Issue.record("expected a miss")
        } catch let error as TurntableError {
            let report = try #require(error.missReport)
            #expect(report.nearestTrackIndex == 1)
            #expect(report.differences == [#"graphQL variables.name: "swift-format" vs "swift""#], "\(report)")
        }
        do {
            _ = try await turntable.data(for: Self.post(#"{"operationName":"GetViewers","query":"query GetViewers { viewer { login name } }"}"#))
            Issue.record("expected a miss")
        } catch let error as TurntableError {
            let report = try #require(error.missReport)
            #expect(report.nearestTrackIndex == 0)
            #expect(report.differences.first == "graphQL operation: GetViewers vs GetViewer", "\(report)")
            #expect(report.differences.contains("graphQL query: query GetViewers{viewer{login name}} vs query GetViewer{viewer{login name}}"), "\(report)")
        }
    }

    @Test func ignoredVariablesLeaveTheRestCompared() async throws {
        let turntable = Turntable(vinyl: try Self.vinyl(), matching: [.method, .url, .graphQL(ignoring: ["input.clientMutationId"])])
        let mutation = "mutation AddStar($input: AddStarInput!) { addStar(input: $input) { starrable { id } clientMutationId } }"
        let fresh = #"{"operationName":"AddStar","query":"\#(mutation)","variables":{"input":{"starrableId":"MDEwOlJlcG9zaXRvcnkx","clientMutationId":"\#(UUID().uuidString)"}}}"#
        #expect(try await answer(turntable, Self.post(fresh)).contains("addStar"))
        // The whole vinyl: the report compares with the mutation's own track, the nearest.
        do {
            _ = try await turntable.data(for: Self.post(#"{"operationName":"AddStar","query":"\#(mutation)","variables":{"input":{"starrableId":"other","clientMutationId":"x"}}}"#))
            Issue.record("expected a miss")
        } catch let error as TurntableError {
            #expect(
                try #require(error.missReport).differences == [
                    #"graphQL variables.input.starrableId: "other" vs "MDEwOlJlcG9zaXRvcnkx""#, "graphQL variables.input.clientMutationId: ignored",
                ])
        }
    }

    @Test func batchesMatchOperationByOperation() async throws {
        let turntable = Turntable(vinyl: try Self.vinyl(), matching: [.method, .url, .graphQL])
        let batch = #"[{"query":"query GetViewer { viewer { login, name } }"},{"query":"query GetUser($login: String!) {\n user(login: $login) { login company }\n}","variables":{"login":"octocat"}}]"#
        #expect(try await answer(turntable, Self.post(batch)).contains("@github"))
        let reversed = #"[{"query":"query GetUser($login: String!) { user(login: $login) { login company } }","variables":{"login":"octocat"}},{"query":"query GetViewer { viewer { login name } }"}]"#
        await #expect(throws: TurntableError.self, "a batch is in order") { try await turntable.data(for: Self.post(reversed)) }
    }

    @Test func getRequestsAndPersistedQueries() async throws {
        let turntable = Turntable(vinyl: try Self.vinyl(), matching: [.method, .path, .graphQL])
        // A GET with the document in the query string, spelled differently from the recording.
        let get = Self.get([
            URLQueryItem(name: "variables", value: #"{ "login": "octocat" }"#),
            URLQueryItem(name: "query", value: "query GetUser($login: String!) {\n  user(login: $login) {\n    login\n    company\n  }\n}"),
        ])
        #expect(try await answer(turntable, get).contains("@github"))
        // An automatic persisted query: the hash alone, then the retry carrying the document too.
        let hash = #"{"persistedQuery":{"version":1,"sha256Hash":"ecf4edb46db40b5132295c0291d62fb65d6759a9eedfa4d5d612dd5ec54a6b38"}}"#
        let persisted = Self.get([
            URLQueryItem(name: "operationName", value: "GetUser"), URLQueryItem(name: "variables", value: #"{"login":"torvalds"}"#),
            URLQueryItem(name: "extensions", value: hash),
        ])
        #expect(try await answer(turntable, persisted).contains("Linux Foundation"))
        let retry = Self.get([
            URLQueryItem(name: "operationName", value: "GetUser"), URLQueryItem(name: "variables", value: #"{"login":"torvalds"}"#),
            URLQueryItem(name: "extensions", value: hash), URLQueryItem(name: "query", value: "query GetUser($login: String!) { user(login: $login) { login company } }"),
        ])
        #expect(try await answer(turntable, retry).contains("Linux Foundation"))
        let otherHash = Self.get([
            URLQueryItem(name: "operationName", value: "GetUser"), URLQueryItem(name: "variables", value: #"{"login":"torvalds"}"#),
            URLQueryItem(name: "extensions", value: hash.replacingOccurrences(of: "ecf4", with: "0000")),
        ])
        await #expect(throws: TurntableError.self) { try await turntable.data(for: otherHash) }
    }

    /// A miss against a request that is not GraphQL says which side is not, whichever it is.
    @Test func aRequestThatIsNotGraphQLIsNamedSo() {
        let graphQL = Track.Request("POST https://api.example.com/graphql").json(#"{"query":"query GetUser { user { id } }"}"#)
        let plain = Track.Request("POST https://api.example.com/graphql").json(#"{"id":1}"#)
        #expect(GraphQLRequest.differences(live: graphQL, recorded: plain, JSONComparison()) == ["graphQL: GetUser vs not a GraphQL request"])
        #expect(GraphQLRequest.differences(live: plain, recorded: graphQL, JSONComparison()) == ["graphQL: not a GraphQL request vs GetUser"])
        #expect(GraphQLRequest.differences(live: plain, recorded: plain, JSONComparison()).isEmpty)
    }

    @Test func normalisingKeepsStringsAndSeparatesNames() {
        #expect(GraphQLRequest.normalised("query  A {\n  a(x: \"two  spaces, # kept\") # gone\n  ...F\n}") == #"query A{a(x:"two  spaces, # kept")...F}"#)
        #expect(GraphQLRequest.normalised(#"{ a(s: """ block "" string """) b }"#) == #"{a(s:""" block "" string """)b}"#)
    }
}
