/// The API types are part of the server's vocabulary; every server file sees them without importing.
@_exported import CairnAPI
