#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

// Typed setters over libcurl's variadic curl_easy_setopt and curl_easy_getinfo, which Swift cannot call:
// each passes its one argument with the type the option expects, so no value is ever read with the
// wrong width.

#include <curl/curl.h>

/// curl_global_init(CURL_GLOBAL_DEFAULT), run once per process whoever calls first; returns its result
/// (the same to every caller). libcurl requires it before the first easy handle.
CURLcode ccurl_global_init_once(void);

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
/// libcurl copies the string (every string option since 7.17.0), so it need not outlive the call.
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
/// A pointer libcurl keeps and uses later (callback data, the error buffer): it must outlive the transfer.
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
/// libcurl keeps the list without copying it: it must outlive the transfer.
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *list);
/// CURLOPT_READFUNCTION.
CURLcode ccurl_setopt_read_function(CURL *handle, curl_read_callback function);
/// CURLOPT_DEBUGFUNCTION.
CURLcode ccurl_setopt_debug_function(CURL *handle, curl_debug_callback function);

CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);

#endif
