import Testing

@testable import GramophoneTesting

@Suite struct VinylNamingTests {
    @Test(arguments: [
        (["UsersTests", "fetchesUser()"], "UsersTests/fetchesUser"),
        (["Outer", "Inner", "marker(_:)"], "Outer/Inner/marker"),
        (["UsersTests", "load(page:size:)"], "UsersTests/load_page_size"),
        (["Spaces and ünïcode", "test()"], "Spaces_and_n_code/test"),
        ([".hidden", "..()"], "hidden"),
        ([String](), "test"),
    ])
    func testNamesBecomeSafeVinylNames(components: [String], expected: String) {
        #expect(VinylNaming.name(components: components) == expected)
    }

    @Test(arguments: [
        ("-[UsersTests testFetchesUser]", "testFetchesUser"),
        ("UsersTests.testFetchesUser", "testFetchesUser"),
        ("testFetchesUser", "testFetchesUser"),
    ])
    func xcTestMethodNamesAreRead(name: String, expected: String) {
        #expect(VinylNaming.xcTestMethod(from: name) == expected)
    }
}
