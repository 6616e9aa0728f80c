import CairnPlatform

/// The trails' version (`trail_catalogue_state`, one row): every write that changes what the map shows (an
/// import, an upload, the demo seed, an admin's edit or deletion of a trail) raises it in its write transaction
/// with `bump(on:at:)`, so each server process knows when its in-memory map index (`TrailMapIndex`) is stale —
/// also after a write by another process.
enum TrailCatalogueState: VersionTable {
    static let schema = "trail_catalogue_state"
}
