/* libintl.h for building elfutils' libraries with mingw-w64 (scripts/cross.sh
 * mingw): no message catalogues, every text is used as it is (and stays a
 * string literal, for the format checks) */
#ifndef PC_SHIM_LIBINTL_H
#define PC_SHIM_LIBINTL_H
#define gettext(msgid) (msgid)
#define dgettext(domain, msgid) (msgid)
#define dcgettext(domain, msgid, cat) (msgid)
#define ngettext(s, p, n) ((n) == 1 ? (s) : (p))
#define textdomain(d) ((void)0)
#define bindtextdomain(d, dir) ((void)0)
#endif
