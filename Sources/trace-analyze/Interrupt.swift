import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (SIGINT) and SIGTERM, turned into a readable descriptor (a self-pipe) so that live mode ends its input,
/// prints its summary and exits with the batch exit code instead of dying. A second Ctrl-C kills as usual.
enum Interrupt {
    /// The write end of the self-pipe, for the handler (a C function pointer cannot capture).
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Installs the handlers; returns the descriptor that becomes readable when a signal arrives.
    static func install() throws -> Int32 {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw ValidationError("cannot set up the interrupt handler: \(String(cString: strerror(errno)))")
        }
        writeEnd = ends[1]
        // A parent may have started us with these signals blocked (the mask is inherited): Ctrl-C must get in.
        var mask = sigset_t()
        sigemptyset(&mask)
        sigaddset(&mask, SIGINT)
        sigaddset(&mask, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        for number in [SIGINT, SIGTERM] {
            signal(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(Interrupt.writeEnd, &byte, 1)
                signal(number, SIG_DFL)
            }
        }
        return ends[0]
    }
}
