// Package strictjson reads a JSON document one way only, as privlab's
// release files need: a key given twice (in any case), a key the target
// type does not have, a document nested deeper than MaxDepth or a value of
// the wrong shape is an Error naming its line, where encoding/json alone
// would keep the last of two readings or drop the unknown key.
//
// It owns the strict decoding only; what the documents mean (manifests,
// audits, release details) belongs to model/releasedir, and it imports
// nothing of privlab.
package strictjson
