/// What is site-wide in a docs site (a folder or several inputs converted to HTML), apart
/// from how each page converts (`ConversionOptions`).
package struct SiteOptions: Equatable, Sendable {
    /// The site's address once published (`--site-url`): pages carry their canonical URL
    /// under it, and the site a `sitemap.xml`.
    package var siteURL: String?
    /// Also an `index.html` that outlines the pages, every page linking back to it (`--index`).
    package var index: Bool
    /// With `--watch`: every page polls `outline-site/reload.js` and reloads itself after a
    /// rebuild that changed it (from `file://` too: no server).
    package var reloads = false

    /// A site with no address and no index page.
    package init(siteURL: String? = nil, index: Bool = false) {
        self.siteURL = siteURL
        self.index = index
    }
}
