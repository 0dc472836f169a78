extension LogFormat {
    /// The formats trace-analyze knows without configuration, in the order they are tried on a new input.
    public static let builtin: [LogFormat] = [.nslogModern, .nslogClassic, .nslogUntimed]

    /// NSLog as Xcode prints it since iOS 10: µs, numeric UTC offset, decimal thread id.
    public static let nslogModern = LogFormat(
        id: "nslog-modern",
        title: "modern NSLog (µs, UTC offset, decimal thread)",
        pattern:
            #"^[ \t]*(?<timestamp>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{4,9}(?:[+-]\d\d:?\d\d|Z)?) (?<process>[^\[\]]+?)\[(?<pid>\d+):(?<thread>\d+)\] ?(?<message>.*)$"#,
        timestamp: .isoLike,
        samples: [
            Sample(
                line: "2019-05-04 10:46:18.564743-0500 CreatingStateLab[11053:1702596] applicationDidBecomeActive:",
                timestamp: "2019-05-04T10:46:18.564743-05:00", process: "CreatingStateLab", pid: 11053,
                thread: "1702596", message: "applicationDidBecomeActive:"),
            Sample(
                line: "2021-03-02 09:15:00.123456+0100 My Great App[501:77] scene(_:willConnectTo:options:)",
                timestamp: "2021-03-02T09:15:00.123456+01:00", process: "My Great App", pid: 501, thread: "77",
                message: "scene(_:willConnectTo:options:)"),
        ])

    /// NSLog as Xcode printed it up to iOS 9: ms, no zone, hexadecimal thread id.
    public static let nslogClassic = LogFormat(
        id: "nslog-classic",
        title: "classic NSLog (ms, no zone, hex thread)",
        pattern:
            #"^[ \t]*(?<timestamp>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{1,3}) (?<process>[^\[\]]+?)\[(?<pid>\d+):(?<thread>[0-9A-Fa-fx]+)\] ?(?<message>.*)$"#,
        timestamp: .isoLike,
        samples: [
            Sample(
                line: "2013-10-13 12:24:09.948 AppDelegate[12199:60b] App Delegate: didFinishLaunchingWithOptions",
                timestamp: "2013-10-13T12:24:09.948", process: "AppDelegate", pid: 12199, thread: "60b",
                message: "App Delegate: didFinishLaunchingWithOptions"),
            Sample(
                line: "2013-05-20 21:05:48.119 State Lab[12751:70b] application:didFinishLaunchingWithOptions:",
                timestamp: "2013-05-20T21:05:48.119", process: "State Lab", pid: 12751, thread: "70b",
                message: "application:didFinishLaunchingWithOptions:"),
            Sample(
                line: " 2013-11-06 14:43:24.413 BackgroundDemo[385:60b] applicationDidFinishLaunching",
                timestamp: "2013-11-06T14:43:24.413", process: "BackgroundDemo", pid: 385, thread: "60b",
                message: "applicationDidFinishLaunching"),
            Sample(
                line: "2013-07-01 18:06:07.038 7_1UIViewController[6617:907] -[ZHFirstSubViewController loadView]",
                process: "7_1UIViewController", pid: 6617, thread: "907",
                message: "-[ZHFirstSubViewController loadView]"),
        ])

    /// A `Process[pid:thread]` prefix with no timestamp (copies where the date was cut off); the name may be absent.
    public static let nslogUntimed = LogFormat(
        id: "nslog-untimed",
        title: "NSLog prefix without timestamp",
        pattern:
            #"^[ \t]*(?!\d{4}-\d\d-\d\d[ T])(?<process>[^\[\]:]*?)\[(?<pid>\d+):(?<thread>[0-9A-Fa-fx]+)\] ?(?<message>.*)$"#,
        timestamp: nil,
        samples: [
            Sample(
                line: "[7397:f803] -[ThirdViewController viewDidLoad]", process: "", pid: 7397, thread: "f803",
                message: "-[ThirdViewController viewDidLoad]"),
            Sample(
                line: "AppDelegate[12199:60b] App Delegate: applicationDidBecomeActive", process: "AppDelegate",
                pid: 12199, thread: "60b", message: "App Delegate: applicationDidBecomeActive"),
        ])
}
