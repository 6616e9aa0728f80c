import CairnPlatform

/// The catalogue's version (`flora_catalogue_state`, one row): every import that changes a species, tag or
/// filter raises it, so each server process (and each device) knows when its copy (`CatalogueStore`) is stale.
enum CatalogueState: VersionTable {
    static let schema = "flora_catalogue_state"
}
