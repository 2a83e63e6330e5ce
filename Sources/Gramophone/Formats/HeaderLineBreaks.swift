import Foundation

/// Header names and values never hold CR, LF or NUL: on the wire those would end the line and
/// start another header (or a body), and C layers cut a string at NUL. Readers refuse such a
/// header with its place (HAR excepted: some browsers join repeated headers with a line break,
/// so the HAR reader splits them into repeated fields), and writers refuse to write one, so no
/// file and no replayed response ever carries an injected header. See Gramophone.docc/VinylFileFormat.md.
enum HeaderLineBreaks {
    static func isUnsafe(_ text: String) -> Bool {
        text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }

    static let fix = "Remove the line break (CR, LF) or NUL; a header that repeats is a list of values, e.g. \"Set-Cookie\": [\"a=1\", \"b=2\"]"

    /// A reader's check of one field; `place` is the headers' place, e.g. `tracks[0].response.headers`.
    static func check(name: String, value: String, at headers: DecodingPath) throws {
        guard isUnsafe(name) || isUnsafe(value) else { return }
        throw StructureError(path: DecodingPath(headers.text + " " + quoted(name)), problem: problem(name: name), fix: fix)
    }

    /// The writers' check: the first unsafe header in the vinyl, as a `VinylError` naming its place.
    static func check(_ vinyl: Vinyl, format: VinylFormat) throws {
        for (index, track) in vinyl.tracks.enumerated() {
            let sides: [(String, Headers)] = [("request", track.request.headers)] + (track.response.map { [("response", $0.headers)] } ?? [])
            for (side, headers) in sides {
                for field in headers.fields where isUnsafe(field.name) || isUnsafe(field.value) {
                    throw VinylError(
                        .unwritable, file: nil, place: "\(format.place(ofTrack: index)).\(side).headers \(quoted(field.name))",
                        problem: problem(name: field.name), fix: fix)
                }
            }
        }
    }

    private static func problem(name: String) -> String {
        "the header \(isUnsafe(name) ? "name" : "value") holds a line break or NUL, which would start another header"
    }

    /// The name as it can be printed on one line.
    private static func quoted(_ name: String) -> String {
        "\"" + String(name.prefix(100)).replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\0", with: "\\0") + "\""
    }

    /// HAR's repeated headers joined by line breaks (Firefox joins `Set-Cookie` so), one value per line.
    static func lines(_ value: String) -> [String] {
        value.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).map(String.init)
    }
}
