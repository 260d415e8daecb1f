"""Flexion-1.0.gir documents every public symbol: classes, enumerations and
their members, functions with each parameter and non-void return value."""
import os
import xml.etree.ElementTree as ET

NS = {"c": "http://www.gtk.org/introspection/core/1.0",
      "glib": "http://www.gtk.org/introspection/glib/1.0"}
CORE = "{%s}" % NS["c"]


def test_every_symbol_is_documented():
    gir = os.path.join(os.environ["GI_TYPELIB_PATH"].split(":")[0], "Flexion-1.0.gir")
    root = ET.parse(gir).getroot()
    namespace = root.find("c:namespace", NS)
    missing, seen = [], 0
    for node in namespace.iter():
        tag = node.tag.replace(CORE, "")
        if tag not in ("class", "enumeration", "member", "constructor", "method", "function",
                       "parameter", "instance-parameter", "return-value"):
            continue
        if tag == "return-value" and node.find("c:type", NS) is not None \
                and node.find("c:type", NS).get("name") == "none":
            continue
        seen += 1
        if node.find("c:doc", NS) is None or not node.find("c:doc", NS).text.strip():
            missing.append(f"{tag} {node.get('name') or node.get('{%s}identifier' % NS['c'])}")
    assert seen > 150
    assert missing == []
    # the error domain is known as one, for GLib.Error.matches()
    errors = [e for e in namespace.findall("c:enumeration", NS) if e.get("name") == "Error"]
    assert errors and errors[0].get("{%s}error-domain" % NS["glib"]) == "flexion-error-quark"
