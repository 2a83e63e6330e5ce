import Foundation
import Gramophone

/// Every structural error of a JSON vinyl, not only the first: `gramophone lint` reports them
/// all so one run shows everything to fix.
///
/// Reading stops at the first error. When it lies inside one track (`log.entries[3].request.url`),
/// that track is taken out of the document and the rest is read again, until it reads or the
/// error is outside the tracks (the top level, a syntax error: nothing after it is reliable).
/// Places are given as they are in the file, whatever was taken out before.
enum StructuralErrors {
    /// More would be noise: the file needs regenerating, not a list.
    static let limit = 50

    static func all(startingWith first: VinylError, in data: Data, name: String, format: VinylFormat, file: String) -> [VinylError] {
        // Property lists, YAML and syntax errors stop at the first.
        guard format != .plist, var document = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return [first] }
        var errors: [VinylError] = []
        var error = first
        // For each track array met, the positions in the file of the elements still in it.
        var positions: [String: [Int]] = [:]
        while true {
            guard let (path, index, rest) = trackPlace(error.place), var elements = array(at: path, in: document), index < elements.count else {
                errors.append(error)
                break
            }
            var original = positions[path] ?? Array(elements.indices)
            // The reader names the place in the shortened document: name the file's own.
            var inFile = error
            inFile.place = "\(path)[\(original[index])]\(rest)"
            errors.append(inFile)
            elements.remove(at: index)
            original.remove(at: index)
            positions[path] = original
            guard errors.count < limit, let shortened = replacing(path, with: elements, in: document),
                let shortenedData = try? JSONSerialization.data(withJSONObject: shortened, options: [.fragmentsAllowed])
            else { break }
            document = shortened
            do {
                _ = try Vinyl(data: shortenedData, name: name, format: format, file: file)
                break
            } catch let next as VinylError {
                error = next
            } catch {
                break
            }
        }
        return errors
    }

    /// `log.entries[3].request.url` → (`log.entries`, 3, `.request.url`): the first index in a place.
    static func trackPlace(_ place: String?) -> (String, Int, String)? {
        guard let place, let open = place.firstIndex(of: "["), let close = place[open...].firstIndex(of: "]"),
            let index = Int(place[place.index(after: open)..<close])
        else { return nil }
        return (String(place[..<open]), index, String(place[place.index(after: close)...]))
    }

    /// The array at a dotted path (`log.entries`; empty for a top-level array).
    static func array(at path: String, in document: Any) -> [Any]? {
        var value: Any = document
        for key in path.split(separator: ".") {
            guard let object = value as? [String: Any], let next = object[String(key)] else { return nil }
            value = next
        }
        return value as? [Any]
    }

    /// `document` with the array at `path` replaced.
    static func replacing(_ path: String, with elements: [Any], in document: Any) -> Any? {
        let keys = path.split(separator: ".").map(String.init)
        func replace(_ value: Any, _ keys: ArraySlice<String>) -> Any? {
            guard let key = keys.first else { return elements }
            guard var object = value as? [String: Any], let child = object[key], let replaced = replace(child, keys.dropFirst()) else { return nil }
            object[key] = replaced
            return object
        }
        return replace(document, keys[...])
    }
}
