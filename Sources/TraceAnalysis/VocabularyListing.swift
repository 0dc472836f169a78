/// The text of `trace-analyze vocabulary`: the entries in force, by family, each with its event and examples.
public enum VocabularyListing {
    public static func render(_ vocabulary: Vocabulary, configFile: String? = nil) -> String {
        var out =
            "Event vocabulary, in the order entries are tried (user entries first); `trace-analyze analyze --events` "
            + "shows what each line was read as.\n"
        let families: [(LifecycleEvent.Family, String)] = [
            (.appDelegate, "App delegate (UIKit)"), (.scene, "Scene delegate (iOS 13+)"),
            (.swiftUI, "SwiftUI scenePhase"), (.appKit, "AppKit (macOS)"),
            (.viewController, "View-controller milestones"),
            (.exitEvidence, "Exit evidence (debugger and system lines)"), (.system, "System notices"),
        ]
        let widths = (
            id: (vocabulary.entries.map(\.id.count).max() ?? 0) + 2,
            event: (vocabulary.entries.map(\.event.rawValue.count).max() ?? 0) + 2
        )
        func line(_ entry: VocabularyEntry) -> String {
            let examples = entry.examples.prefix(2).map { "\"\(FormatListing.visible($0, limit: 70))\"" }
            return "  " + entry.id.padding(widths.id) + entry.event.rawValue.padding(widths.event)
                + examples.joined(separator: ", ") + "\n"
        }
        let user = vocabulary.entries.filter(\.userDefined)
        if !user.isEmpty {
            out += "\nYour entries (\(Sanitizer.terminal(configFile ?? "configuration"))):\n"
            for entry in user { out += line(entry) }
        }
        for (family, title) in families {
            let entries = vocabulary.entries.filter { entry in
                !entry.userDefined && (entry.appKit ? .appKit : entry.event.family) == family
            }
            guard !entries.isEmpty else { continue }
            out += "\n\(title):\n"
            for entry in entries { out += line(entry) }
        }
        return out
    }
}
