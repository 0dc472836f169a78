extension Configuration {
    /// The first YAML alias (`*name`) of `text` and its 1-based line, or nil when it has none.
    ///
    /// A configuration file has no use for aliases, and they are how a few lines of YAML become billions of nodes
    /// (an alias of an alias of a list, used as a mapping key, is hashed whole: the parser would never finish).
    /// So a file with one is refused before it is parsed. The scan looks for a `*` where a node starts: at the
    /// start of a line, after `- `, `? `, `: `, `[`, `{` or a `,` in a flow collection, outside quoted scalars,
    /// comments and block scalars (`|`, `>`); a `*` inside a plain scalar (`message: Tom *and* Jerry`) is text.
    static func firstAlias(in text: String) -> (line: Int, alias: String)? {
        let space = UInt8(ascii: " ")
        let tab = UInt8(ascii: "\t")
        let carriageReturn = UInt8(ascii: "\r")
        let doubleQuote = UInt8(ascii: "\"")
        let singleQuote = UInt8(ascii: "'")
        var quote: UInt8? = nil  // a quoted scalar still open at the end of a line
        var blockIndent: Int? = nil  // inside a block scalar: the indentation of the line that opened it
        var flow = 0
        for (number, rawLine) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .enumerated()
        {
            let line = Array(rawLine)
            let indent = line.prefix { $0 == space }.count
            if let block = blockIndent {
                if indent > block || line.allSatisfy({ $0 == space || $0 == tab || $0 == carriageReturn }) { continue }
                blockIndent = nil
            }
            func isBreak(_ index: Int) -> Bool {
                index >= line.count || line[index] == space || line[index] == tab || line[index] == carriageReturn
            }
            var nodeStart = quote == nil
            var index = 0
            scan: while index < line.count {
                let byte = line[index]
                if let open = quote {
                    if open == doubleQuote, byte == UInt8(ascii: "\\") {
                        index += 2
                        continue
                    }
                    if byte == open {
                        if open == singleQuote, index + 1 < line.count, line[index + 1] == singleQuote {
                            index += 2
                            continue
                        }
                        quote = nil
                    }
                    index += 1
                    continue
                }
                switch byte {
                case space, tab, carriageReturn:
                    break
                case UInt8(ascii: "#") where index == 0 || line[index - 1] == space || line[index - 1] == tab:
                    break scan  // a comment
                case UInt8(ascii: "*") where nodeStart:
                    let name = line[(index + 1)...].prefix { !" \t\r,[]{}".utf8.contains($0) }
                    return (number + 1, "*" + String(decoding: name, as: UTF8.self))
                case doubleQuote where nodeStart, singleQuote where nodeStart:
                    quote = byte
                    nodeStart = false
                case UInt8(ascii: "-") where nodeStart && isBreak(index + 1),
                    UInt8(ascii: "?") where nodeStart && isBreak(index + 1):
                    break  // a sequence entry or an explicit key: a node starts after it
                case UInt8(ascii: ":")
                where isBreak(index + 1)
                    || (flow > 0 && index + 1 < line.count
                        && ",]}".utf8.contains(line[index + 1])):
                    nodeStart = true
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    if nodeStart || flow > 0 {
                        flow += 1
                        nodeStart = true
                    }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if flow > 0 {
                        flow -= 1
                        nodeStart = false
                    }
                case UInt8(ascii: ",") where flow > 0:
                    nodeStart = true
                case UInt8(ascii: "|") where nodeStart && flow == 0, UInt8(ascii: ">") where nodeStart && flow == 0:
                    blockIndent = indent
                    break scan  // the rest of the line is the block's header
                case UInt8(ascii: "&") where nodeStart, UInt8(ascii: "!") where nodeStart:
                    // An anchor or a tag: the node itself starts after it.
                    while index + 1 < line.count, !isBreak(index + 1) { index += 1 }
                default:
                    nodeStart = false  // a plain scalar: what follows in it is text
                }
                index += 1
            }
        }
        return nil
    }
}
