import Foundation
import JackwaveTestSupport

/// What `jackwave measure` must report for a `TestDevice`, computed independently of it by
/// numpy and scipy: the FIR's and the biquads' responses with `scipy.signal.freqz`, the
/// polynomial's harmonics from its closed form (cos(kθ)'s share of xⁿ for x = A·cos θ is
/// Aⁿ·C(n, (n−k)/2)/2ⁿ⁻¹), white noise's level over 20 Hz–20 kHz from its RMS.
enum MeasureTruth {
    /// Runs the script on `device` for a measurement at `sampleRate`, sweep and tone level
    /// `level` dBFS, tone `toneHz`, with responses wanted at `frequencies` and harmonics at
    /// `fundamentals`. The result is the script's JSON, decoded.
    /// `analysisSeconds` is the shortest window a tone's THD+N can be measured over: the
    /// shorter, the wider the noise's estimate spreads.
    static func compute(_ device: TestDevice, sampleRate: Int, level: Double, toneHz: Double,
                        frequencies: [Double], fundamentals: [Double], analysisSeconds: Double) throws -> [String: Any] {
        let parameters: [String: Any] = [
            "fs": sampleRate, "channels": device.channels, "delay": device.delay, "level": level, "tone_hz": toneHz,
            "poly": Dictionary(uniqueKeysWithValues: device.polynomials.map { ("\($0.key)", $0.value) }),
            "biquad": Dictionary(uniqueKeysWithValues: device.biquads.map { ("\($0.key)", $0.value) }),
            "gain": Dictionary(uniqueKeysWithValues: device.gains.map { ("\($0.key)", $0.value) }),
            "noise": Dictionary(uniqueKeysWithValues: device.noise.map { ("\($0.key)", $0.value.rms) }),
            "leaks": device.leaks.map { [Double($0.from), Double($0.to), $0.gain] },
            "freqs": frequencies, "fundamentals": fundamentals, "analysis_s": analysisSeconds,
        ]
        let input = String(decoding: try JSONSerialization.data(withJSONObject: parameters), as: UTF8.self)
        let run = try Run.tool("/usr/bin/python3", ["-c", script, input], server: nil, timeout: 120)
        guard run.status == 0, let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] else {
            throw TestFailure("the truth script failed: \(run.stderr)")
        }
        return object
    }

    /// The script: parameters as JSON in argv[1], truths as JSON on stdout. Per channel c
    /// ("1", "2", …): the response in dB relative to 1 kHz at `freqs`, each harmonic's dBc at
    /// `fundamentals`, THD+N (dB) of the tone and the standard deviation that the noise's
    /// randomness gives its estimate, the noise (dBFS), the dynamic range (dB); and the crosstalk matrix (dB, at 1 kHz, relative to the driven channel's own output).
    static let script = #"""
import json, sys
import numpy as np
from math import comb
from scipy.signal import freqz

p = json.loads(sys.argv[1])
fs = float(p["fs"]); A = 10 ** (p["level"] / 20); f_tone = p["tone_hz"]
channels = p["channels"]; top = 20000.0

# The device's FIR, as jackwave-testdevice designs it.
frac = p["delay"] - np.floor(p["delay"])
x = np.arange(255) - 127 - frac
h = np.sinc(x) * np.i0(10 * np.sqrt(np.clip(1 - (x / 128) ** 2, 0, None))) / np.i0(10)
h /= h.sum()

def fir(f):
    return freqz(h, [1.0], worN=np.atleast_1d(np.asarray(f, float)), fs=fs)[1]

def biquad(c, f):
    q = p["biquad"].get(str(c), [1, 0, 0, 0, 0])
    return freqz(q[:3], [1.0, q[3], q[4]], worN=np.atleast_1d(np.asarray(f, float)), fs=fs)[1]

def harmonic(c, k, amplitude):
    a = p["poly"].get(str(c), [1, 0, 0, 0, 0])
    return sum(a[n - 1] * amplitude ** n * comb(n, (n - k) // 2) / 2 ** (n - 1)
               for n in range(1, 6) if n >= k and (n - k) % 2 == 0)

def noise_power(c):
    rms = p["noise"].get(str(c), 0.0)
    return rms ** 2 * (top - 20) / (fs / 2)

def tone(c, amplitude, f):
    # The tones play on every output at once: what leaks into c adds to its fundamental.
    g = p["gain"].get(str(c), 1.0)
    leak = sum(gain for (src, dst, gain) in p["leaks"] if int(dst) == c)
    return abs((harmonic(c, 1, amplitude) * g * biquad(c, f)[0] + leak * amplitude) * fir(f)[0])

out = {"channels": {}, "crosstalk": {}}
freqs = np.array(p["freqs"]); fund = np.array(p["fundamentals"])
for c in range(1, channels + 1):
    g = p["gain"].get(str(c), 1.0)
    path = lambda f: g * biquad(c, f) * fir(f)
    lin = harmonic(c, 1, A)
    resp = np.abs(path(freqs)) / np.abs(path(1000.0))[0]
    harm = {}
    for k in range(2, 6):
        # Harmonic k of fundamental f leaves the polynomial at k·f and goes through the rest.
        harm[str(k)] = list(20 * np.log10(np.abs(harmonic(c, k, A) * path(k * fund)) / np.abs(lin * path(fund))))
    # Powers (mean squares): a sine of amplitude a has a²/2; the band's noise, its variance.
    fundamental = tone(c, A, f_tone) ** 2 / 2
    residual = sum(abs(harmonic(c, k, A) * path(k * f_tone)[0]) ** 2 / 2 for k in range(2, 6) if k * f_tone <= top)
    residual += noise_power(c)
    quiet = tone(c, 1e-3, f_tone) ** 2 / 2
    noise = noise_power(c)
    # The noise's band power, estimated from a Hann-windowed FFT of n frames, spreads with a
    # relative variance of (Σw⁴·n/(Σw²)²)/bins = (35/18)/bins; only the noise's share of the
    # residual is random.
    n = p["analysis_s"] * fs
    bins = n * (top - 20) / fs
    sigma = 10 / np.log(10) * (noise / residual if residual > 0 else 0) * np.sqrt(35 / 18 / bins)
    out["channels"][str(c)] = {
        "response_db": list(20 * np.log10(resp)),
        "harmonics_db": harm,
        "thd_n_db": float(10 * np.log10(residual / (fundamental + residual))),
        "thd_n_sigma_db": float(sigma),
        "noise_db": float(10 * np.log10(2 * noise)),
        "dynamic_range_db": float(60 - 10 * np.log10(noise / (quiet + noise))),
    }
for (src, dst, gain) in p["leaks"]:
    src, dst = int(src), int(dst)
    own = abs(harmonic(src, 1, A)) * p["gain"].get(str(src), 1.0) * np.abs(biquad(src, 1000.0))[0]
    out["crosstalk"]["%d-%d" % (src, dst)] = float(20 * np.log10(abs(gain) * A / own))
def finite(v):
    # JSON has no infinities: a harmonic a channel does not make (−∞ dBc) is null.
    if isinstance(v, dict): return {k: finite(x) for k, x in v.items()}
    if isinstance(v, list): return [finite(x) for x in v]
    return float(v) if np.isfinite(v) else None
print(json.dumps(finite(out)))
"""#
}
