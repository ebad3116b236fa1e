import CLibXML2

/// The version of the libxml2 this build links, for diagnostics.
public enum LibXML2 {
    public static var version: String { String(cString: chatmail_libxml2_version()) }
}
