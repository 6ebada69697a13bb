import Foundation
import FoundationXML
import JackwaveSoundFiles

/// A sound file's `iXML` chunk, read by Foundation's XML parser (not jackwave's writer):
/// every element's text by its path below the root, `SPEED/TIMECODE_RATE`, in document
/// order (`TRACK_LIST/TRACK/NAME` has one value per track).
public struct IXMLFields {
    public let values: [String: [String]]
    /// The chunk as stored, for what a parser would not show (padding, the declaration).
    public let bytes: [UInt8]

    public init(_ path: String) throws {
        let file = try SoundFile(readingFrom: path)
        guard let bytes = file.chunk(id: "iXML") else { throw TestFailure("\(path): no iXML chunk") }
        self.bytes = bytes
        let collector = Collector()
        let parser = XMLParser(data: Data(bytes.reversed().drop { $0 == 0x20 || $0 == 0 || $0 == 0x0A }.reversed()))
        parser.delegate = collector
        guard parser.parse() else { throw TestFailure("\(path): the iXML does not parse: \(parser.parserError.map { "\($0)" } ?? "?")") }
        values = collector.values
    }

    /// The one value at `path`, nil if none or several.
    public subscript(_ path: String) -> String? {
        guard let list = values[path], list.count == 1 else { return nil }
        return list[0]
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var values: [String: [String]] = [:]
        var stack: [String] = []
        var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            stack.append(name)
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let key = stack.dropFirst().joined(separator: "/")
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !value.isEmpty { values[key, default: []].append(value) }
            text = ""
            stack.removeLast()
        }
    }
}
