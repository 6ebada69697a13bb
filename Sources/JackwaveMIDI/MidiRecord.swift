// The module's first file; see Package.swift.
