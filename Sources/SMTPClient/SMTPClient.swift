import CCurlShim
