import CairnPlatform

/// The mountains' version (`ski_catalogue_state`, one row): every write that changes what a list of
/// mountains shows or sorts by (a mountain's name or place, a ticket price; an import, a price sheet, an
/// admin's edit, the demo seed) raises it in its write transaction, so each server process knows when its
/// in-memory index (`SkiMountainIndex`) is stale — also after a write by another process.
enum SkiCatalogueState: VersionTable {
    static let schema = "ski_catalogue_state"
}
