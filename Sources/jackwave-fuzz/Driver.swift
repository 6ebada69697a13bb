import FoundationEssentials
import Glibc

/// libFuzzer's driver (compiler-rt's `LLVMFuzzerRunDriver`): jackwave-fuzz is a libFuzzer
/// binary (`swiftc -sanitize=fuzzer`, `scripts/fuzz`), one executable for every target, the
/// target named by `JACKWAVE_FUZZ_TARGET` (`FuzzTarget`).
@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(_ argc: UnsafeMutablePointer<Int32>,
               _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
               _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// The entry point SwiftPM gives an executable target on Linux (`<module>_main`, which its
/// link makes `main`): it runs libFuzzer's driver on our callback. In a build with
/// `--sanitize=fuzzer`, libFuzzer's own `main` may run instead; it calls
/// `LLVMFuzzerTestOneInput` below, the same callback.
@_cdecl("jackwave_fuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var vector = argv
    return runDriver(&count, &vector, { data, size in FuzzTarget.runOne(data, size) })
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 { FuzzTarget.runOne(data, size) }
