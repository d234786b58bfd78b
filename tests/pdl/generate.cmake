# Writes the bad inputs that are too large to commit into DIR:
#   huge.pdl  10 MiB: a valid program padded with comments (refused by size)
#   deep.pdl  an expression nested 100000 parentheses deep (refused before the grammar
#             could recurse that deep)
#   long.pdl  a 2 MiB expression on one line with an error at its end (no recursion in
#             long flat expressions; the caret line is shortened)
#   cmake -DDIR=... -P generate.cmake
file(MAKE_DIRECTORY ${DIR})
string(REPEAT "// padding padding padding padding padding padding padding padding padding pad\n" 131072 padding)
file(WRITE ${DIR}/huge.pdl "PROGRAM NAME IS 'huge';\n${padding}")
string(REPEAT "(" 100000 open)
string(REPEAT ")" 100000 close)
file(WRITE ${DIR}/deep.pdl "PROGRAM NAME IS 'deep';\nVARIABLE x = ${open}1${close};\n")
string(REPEAT "1+" 1048576 terms)
file(WRITE ${DIR}/long.pdl "PROGRAM NAME IS 'long';\nVARIABLE x = ${terms}1 1;\n")
