import Foundation

/// A PipeWire configuration drop-in that gives a headless PipeWire physical ports, named
/// as `jackd -d dummy` names its own: `system:capture_N` (output ports, physical and
/// terminal) and `system:playback_N` (input ports, the same).
///
/// Without a session manager PipeWire has no device, so no port is physical and jackwave's
/// default connection finds nothing. PipeWire marks the ports of an adapter node as physical
/// when its media class is a Source or Sink, and names them `capture_N` / `playback_N` when
/// their channel positions are unknown. The capture side is an `audiotestsrc` (a sine, as a
/// microphone would give something), the playback side a `support.null-audio-sink`; each
/// node's ports are configured at creation (`node.param.PortConfig`, in DSP mode: one mono
/// float port per channel), which is otherwise a session manager's job.
struct PhysicalPortsConfig {
    let rate: Int
    let capturePorts: Int
    let playbackPorts: Int

    /// The drop-in's text: PipeWire's SPA-JSON.
    var text: String {
        var nodes: [String] = []
        if capturePorts > 0 {
            nodes.append(node(factory: "audiotestsrc", name: "system-capture", mediaClass: "Audio/Source",
                              direction: "Output", channels: capturePorts))
        }
        if playbackPorts > 0 {
            nodes.append(node(factory: "support.null-audio-sink", name: "system-playback", mediaClass: "Audio/Sink",
                              direction: "Input", channels: playbackPorts))
        }
        // audiotestsrc's library is not in PipeWire's default list of SPA libraries.
        return """
            context.spa-libs = { audiotestsrc = audiotestsrc/libspa-audiotestsrc }
            context.objects = [
            \(nodes.joined(separator: "\n"))
            ]

            """
    }

    private func node(factory: String, name: String, mediaClass: String, direction: String, channels: Int) -> String {
        let positions = Array(repeating: "UNK", count: channels).joined(separator: " ")
        return """
                { factory = adapter
                    args = {
                        factory.name = \(factory)
                        node.name = \(name)
                        node.description = system
                        media.class = \(mediaClass)
                        node.want-driver = true
                        object.linger = true
                        node.param.PortConfig = { direction = \(direction) mode = dsp format = {
                            mediaType = audio mediaSubtype = raw format = F32P rate = \(rate) channels = \(channels)
                            position = [ \(positions) ] } }
                    }
                }
            """
    }

    /// Writes the drop-in where PipeWire reads it with `XDG_CONFIG_HOME=configHome`.
    func write(toConfigHome configHome: String) throws {
        let dropIns = configHome + "/pipewire/pipewire.conf.d"
        try FileManager.default.createDirectory(atPath: dropIns, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: dropIns + "/jackwave-physical-ports.conf"))
    }
}
