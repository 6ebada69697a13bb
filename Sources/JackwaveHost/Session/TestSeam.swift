/// The one seam through which the end-to-end tests reach into a release binary: variables of
/// the environment, read once as a session begins, which no user sets. Each provokes what a
/// test cannot wait for on a real machine. Nothing else in jackwave reads a `JACKWAVE_TEST_*`.
struct TestSeam {
    /// `JACKWAVE_TEST_CLOCK=SECONDS[,+STEP@AT]…`: a wall clock that starts where the test says
    /// and steps when it says (`RunClock.parse`), for names and cuts on the wall clock.
    let clock: RunClock
    /// `JACKWAVE_TEST_WRITER_STALL_US`: the writer sleeps this long before each pass, so that
    /// the ring fills for real and a drop is counted.
    let writerStallMicroseconds: UInt32
    /// `JACKWAVE_TEST_LTC_STALL_US`: the LTC reader stops this long once, at its first
    /// samples (a library stuck in a call), so that its ring fills for real and the writer
    /// must not wait for it.
    let ltcStallMicroseconds: UInt32

    init(_ environment: [String: String]) {
        clock = environment["JACKWAVE_TEST_CLOCK"].flatMap(RunClock.parse) ?? .system
        writerStallMicroseconds = environment["JACKWAVE_TEST_WRITER_STALL_US"].flatMap { UInt32($0) } ?? 0
        ltcStallMicroseconds = environment["JACKWAVE_TEST_LTC_STALL_US"].flatMap { UInt32($0) } ?? 0
    }
}
