/* Shell-style wildcard matching, for set_ftrace_filter patterns such as "*lock*". */
#ifndef LIB_GLOB_H
#define LIB_GLOB_H

#include <stdbool.h>

/*
 * True if all of str matches pattern. "*" matches any run of characters, "?" any one character,
 * "[abc]" "[a-z]" one of a set ("[!a-z]" or "[^a-z]" one not in it; a leading ']' is a member),
 * and "\c" matches c literally. A '[' with no closing ']' is an ordinary character.
 */
bool glob_match(const char *pattern, const char *str);

#endif
