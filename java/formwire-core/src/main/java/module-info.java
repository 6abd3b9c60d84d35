/** formwire: sans-IO multipart/form-data and application/x-www-form-urlencoded parsers and encoders. */
module dev.formwire.core {
    requires transitive java.net.http;

    exports dev.formwire;
    exports dev.formwire.multipart;
    exports dev.formwire.urlencoded;
    exports dev.formwire.v8;
}
